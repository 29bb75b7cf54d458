package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not a test: measures group commit. N client threads each send a batch (a 1 KiB message put plus
 * a state put) through one "engine" thread and wait for its durability future before the next,
 * like N concurrent SendMessage calls. Prints batches/s and WAL fsyncs/s per N.
 *
 * <p>Usage: {@code java -cp <test classpath> io.hikyaku.store.rocksdb.GroupCommitBench [seconds] [dir]}
 */
public final class GroupCommitBench {

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        Path base = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("hikyaku-bench");
        System.out.printf("%-10s %-8s %12s %12s %14s%n", "durability", "writers", "batches/s", "fsyncs/s", "batches/fsync");
        for (Durability durability : new Durability[] {Durability.FSYNC, Durability.BATCH}) {
            for (int writers : new int[] {1, 8, 64}) {
                run(base.resolve(durability + "-" + writers), durability, writers, seconds);
            }
        }
    }

    private static void run(Path dir, Durability durability, int writers, int seconds) throws Exception {
        ExecutorService engine = Executors.newSingleThreadExecutor();
        AtomicLong sequence = new AtomicLong();
        AtomicLong done = new AtomicLong();
        try (RocksDbStore store = RocksDbStore.open(dir, durability)) {
            long stopAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            long syncsBefore = store.walSyncCount();
            long start = System.nanoTime();
            List<Thread> clients = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                Thread t = new Thread(() -> {
                    byte[] body = new byte[1024];
                    while (System.nanoTime() < stopAt) {
                        long n = sequence.incrementAndGet();
                        byte[] key = ("m" + n).getBytes();
                        try {
                            engine.submit(() -> store.write(new StoreBatch().put(Keyspace.MESSAGES, key, body)
                                    .put(Keyspace.MESSAGE_STATE, key, key))).get().get();
                            done.incrementAndGet();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
                t.start();
                clients.add(t);
            }
            for (Thread t : clients) {
                t.join();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long syncs = store.walSyncCount() - syncsBefore;
            System.out.printf("%-10s %-8d %12.0f %12.0f %14.1f%n", durability, writers, done.get() / elapsed,
                    syncs / elapsed, syncs == 0 ? 0.0 : (double) done.get() / syncs);
        } finally {
            engine.shutdownNow();
        }
    }
}
