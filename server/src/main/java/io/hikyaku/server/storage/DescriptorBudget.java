package io.hikyaku.server.storage;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns at start when the process may open too few files for the data directory: RocksDB keeps up
 * to {@link io.hikyaku.store.rocksdb.RocksDbStore#MAX_OPEN_TABLES} table files open, so running out
 * of descriptors would fail reads and writes later instead of now.
 */
final class DescriptorBudget {

    private static final Logger LOG = LoggerFactory.getLogger(DescriptorBudget.class);
    /** Sockets, WAL and log files, the JVM's own jars: what the server needs besides its tables. */
    static final long HEADROOM = 1024;

    private DescriptorBudget() {}

    static void warnIfLow(Path dataDir) {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            String warning = warning(dataDir, tables(dataDir), os.getMaxFileDescriptorCount());
            if (warning != null) {
                LOG.warn(warning);
            }
        }
    }

    /** The warning for {@code tables} table files under a limit of {@code maxDescriptors}, or null when there is room. */
    static String warning(Path dataDir, long tables, long maxDescriptors) {
        // room for the tables to double as the data grows, up to what RocksDB keeps open at most
        long needed = Math.min(2 * tables, io.hikyaku.store.rocksdb.RocksDbStore.MAX_OPEN_TABLES) + HEADROOM;
        if (maxDescriptors <= 0 || maxDescriptors >= needed) {
            return null;
        }
        return "data directory " + dataDir + " has " + tables + " table files, of which RocksDB keeps up to "
                + io.hikyaku.store.rocksdb.RocksDbStore.MAX_OPEN_TABLES + " open, but this"
                + " process may open only " + maxDescriptors + " files; raise the limit to at least " + needed
                + " (ulimit -n, LimitNOFILE= under systemd, --ulimit nofile= for Docker) before the store grows"
                + " further (docs/operations.md, \"Open files\")";
    }

    private static long tables(Path dataDir) {
        if (!Files.isDirectory(dataDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dataDir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".sst")).count();
        } catch (IOException e) {
            return 0; // the store's own open reports an unreadable directory
        }
    }
}
