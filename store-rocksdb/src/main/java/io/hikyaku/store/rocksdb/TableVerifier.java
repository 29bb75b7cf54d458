package io.hikyaku.store.rocksdb;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;

/**
 * Verifies the checksums of every block of the given tables, one file at a time, on its own daemon
 * thread, each file through its own reader (not the database's handles, so a reopen or a close of
 * the database never waits for it, and a table compacted away meanwhile is simply skipped). What a
 * store too big to verify before it opens does instead: it serves at once, its reads check the
 * checksums of what they read until this has finished, and damage found here is reported.
 */
final class TableVerifier {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableVerifier.class);

    /**
     * The verification waits this long before it begins: a start-up keeps both cores busy (class
     * loading, the JIT, the engine's load) until the server serves, and the reads of that time check
     * their own blocks anyway.
     */
    static final long START_DELAY_MILLIS = 2_000;

    private TableVerifier() {}

    /**
     * Starts verifying {@code tables}; {@code done} is told null when every table passed, else what
     * is damaged.
     */
    static Thread start(Path dir, List<Path> tables, Consumer<String> done) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(START_DELAY_MILLIS);
            } catch (InterruptedException e) {
                return; // the store is closing
            }
            done.accept(verify(dir, tables));
        }, "hikyaku-store-verify");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return t;
    }

    /** Null when every table that still exists passes, else a description of the first damage found. */
    static String verify(Path dir, List<Path> tables) {
        long started = System.nanoTime();
        int checked = 0;
        try (Options options = new Options()) {
            for (Path table : tables) {
                if (Thread.currentThread().isInterrupted()) {
                    return null;
                }
                if (!table.toFile().exists()) {
                    continue; // compacted away since the list was taken: its data lives in newer tables
                }
                try (SstFileReader reader = new SstFileReader(options)) {
                    reader.open(table.toString());
                    reader.verifyChecksum();
                    checked++;
                } catch (RocksDBException e) {
                    if (!table.toFile().exists() || e.getMessage() != null && e.getMessage().contains("No such file")) {
                        continue;
                    }
                    String damage = "data directory " + dir + " is corrupted: table " + table.getFileName()
                            + " fails its checksum verification (" + e.getMessage() + "); messages stored in it cannot be"
                            + " read. Restore the directory from a backup (docs/operations.md, \"Backup and restore\")";
                    LOG.error(damage);
                    return damage;
                }
            }
        }
        LOG.info("store: the checksums of {} tables verified in {} ms", checked,
                (System.nanoTime() - started) / 1_000_000);
        return null;
    }
}
