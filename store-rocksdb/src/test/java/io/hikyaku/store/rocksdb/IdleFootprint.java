package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Not a test: opens a store, pushes 20k 1 KiB messages through a 1k backlog, then idles and
 * prints the process RSS. Usage: {@code java -Xmx64m -cp <test classpath> io.hikyaku.store.rocksdb.IdleFootprint}
 */
public final class IdleFootprint {

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("hikyaku-footprint");
        System.out.println("RSS before open: " + rssKiB() + " KiB");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.BATCH)) {
            System.out.println("RSS after open:  " + rssKiB() + " KiB");
            Random random = new Random(1);
            for (int i = 0; i < 20_000; i++) {
                byte[] body = new byte[1024];
                random.nextBytes(body);
                StoreBatch b = new StoreBatch().put(Keyspace.MESSAGES, ("m" + i).getBytes(), body);
                if (i >= 1_000) {
                    b.deleteOnceWritten(Keyspace.MESSAGES, ("m" + (i - 1_000)).getBytes());
                }
                store.write(b);
            }
            for (int i = 19_000; i < 20_000; i++) {
                store.get(Keyspace.MESSAGES, ("m" + i).getBytes());
            }
            Thread.sleep(2_000);
            System.out.println("RSS idle after 20k messages: " + rssKiB() + " KiB");
            Runtime rt = Runtime.getRuntime();
            System.out.println("Java heap used: " + (rt.totalMemory() - rt.freeMemory()) / 1024 + " KiB of "
                    + rt.totalMemory() / 1024 + " KiB committed");
            store.memoryStats().forEach((k, v) -> System.out.println(k + ": " + v / 1024 + " KiB"));
        }
    }

    static long rssKiB() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
