package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;

/** Messages pass through a small backlog (put, later SingleDelete): the directory must stay small. */
class SpaceReclamationTest {

    private static final int MESSAGES = 30_000;
    private static final int BACKLOG = 20;
    private static final int BODY = 1024;

    @TempDir
    Path tmp;

    @Test
    void longRunThroughSmallBacklogKeepsTheDirectorySmall() throws Exception {
        Path dir = tmp.resolve("data");
        RocksDbStoreOptions options = RocksDbStoreOptions.defaults().withDurability(Durability.NONE)
                .withWriteBuffers(256 * 1024, 1 << 20);
        Random random = new Random(42);
        long maxDuringRun = 0;
        try (RocksDbStore store = RocksDbStore.open(dir, options)) {
            for (int i = 0; i < MESSAGES; i++) {
                byte[] body = new byte[BODY];
                random.nextBytes(body); // incompressible: the test measures deletion, not LZ4
                StoreBatch batch = new StoreBatch().put(Keyspace.MESSAGES, b("m" + i), body)
                        .put(Keyspace.MESSAGE_STATE, b("m" + i), b("visible"));
                if (i >= BACKLOG) {
                    batch.deleteOnceWritten(Keyspace.MESSAGES, b("m" + (i - BACKLOG)))
                            .delete(Keyspace.MESSAGE_STATE, b("m" + (i - BACKLOG)));
                }
                store.write(batch).get(10, TimeUnit.SECONDS);
                if (i % 5_000 == 0) {
                    maxDuringRun = Math.max(maxDuringRun, sizeOf(dir));
                }
            }
            long written = (long) MESSAGES * BODY;
            assertThat(maxDuringRun).as("directory size while running").isLessThan(written / 8);
            store.flushAndCompact();
            // WAL files are kept for reuse (Tuning.RECYCLED_WAL_FILES): a bounded number, counted apart.
            long after = sizeOf(dir) - walFiles(dir).mapToLong(java.io.File::length).sum();
            assertThat(after).as("directory size after flush and compaction, %d MiB written, without WAL files",
                    written >> 20).isLessThan(1L << 20);
            assertThat(walFiles(dir).count()).as("WAL files: the live one plus those kept for reuse")
                    .isLessThanOrEqualTo(Tuning.RECYCLED_WAL_FILES + 1);
            int[] live = {0};
            store.scan(Keyspace.MESSAGES, new byte[0], (k, v) -> ++live[0] > 0);
            assertThat(live[0]).isEqualTo(BACKLOG);
        }
    }

    private static java.util.stream.Stream<java.io.File> walFiles(Path dir) {
        return java.util.Arrays.stream(java.util.Objects.requireNonNull(dir.toFile().listFiles()))
                .filter(f -> f.getName().endsWith(".log"));
    }

    /** Sum of file sizes; tolerant of files that RocksDB deletes while we look (length 0 then). */
    static long sizeOf(Path dir) {
        long total = 0;
        for (java.io.File f : java.util.Objects.requireNonNull(dir.toFile().listFiles())) {
            total += f.length();
        }
        return total;
    }
}
