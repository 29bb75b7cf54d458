package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Run as a separate process by {@link ProcessCrashTest}: writes queue-like batches for ever and
 * prints "ACK n" when batch n's future completes, until it is killed. With a third argument
 * "compact", a second thread runs {@link RocksDbStore#flushAndCompact()} back to back, printing
 * "COMPACTING k" before and "COMPACTED k" after each one, so that a kill lands inside one.
 */
public final class CrashChild {

    static final int WINDOW = 10;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Durability durability = Durability.valueOf(args[1]);
        boolean compact = args.length > 2 && args[2].equals("compact");
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        RocksDbStore store = RocksDbStore.open(dir, durability);
        byte[] last = store.get(Keyspace.META, key("last"));
        long start = last == null ? 0 : Long.parseLong(new String(last, StandardCharsets.UTF_8)) + 1;
        out.println("OPEN " + start);
        if (compact) {
            Thread compactor = new Thread(() -> {
                for (long k = 0; ; k++) {
                    out.println("COMPACTING " + k);
                    store.flushAndCompact();
                    out.println("COMPACTED " + k);
                }
            }, "crash-child-compactor");
            compactor.setDaemon(true);
            compactor.start();
        }
        for (long n = start; n < start + 1_000_000; n++) {
            final long acked = n;
            store.write(batch(n)).thenRun(() -> out.println("ACK " + acked));
            if (n % 64 == 0) {
                Thread.sleep(1); // let acknowledgements interleave with writes
            }
        }
        store.close();
    }

    /** Batch n: message n in, message n-WINDOW out, META last = n. Atomic, so state is a prefix. */
    static StoreBatch batch(long n) {
        StoreBatch b = new StoreBatch().put(Keyspace.MESSAGES, key("m" + n), body(n))
                .put(Keyspace.META, key("last"), key(Long.toString(n)));
        if (n >= WINDOW) {
            b.deleteOnceWritten(Keyspace.MESSAGES, key("m" + (n - WINDOW)));
        }
        return b;
    }

    static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] body(long n) {
        return key(("message " + n + ";").repeat(10));
    }
}
