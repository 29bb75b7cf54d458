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
        long limit = openFileLimit();
        if (limit >= io.hikyaku.store.rocksdb.RocksDbStore.MAX_OPEN_TABLES + HEADROOM) {
            return; // room whatever the tables: no need to count them
        }
        String warning = warning(dataDir, tables(dataDir), limit);
        if (warning != null) {
            LOG.warn(warning);
        }
    }

    /**
     * The process's limit on open files, or 0 when unknown. Read from {@code /proc/self/limits} where
     * there is one: the platform MXBean gives the same number but costs ~30 ms of the start to set up.
     */
    static long openFileLimit() {
        Path limits = Path.of("/proc/self/limits");
        if (Files.isReadable(limits)) {
            try {
                long soft = softLimit(Files.readAllLines(limits));
                if (soft > 0) {
                    return soft;
                }
            } catch (IOException | RuntimeException e) {
                // fall back to the MXBean
            }
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return os.getMaxFileDescriptorCount();
        }
        return 0;
    }

    /** The soft limit of the "Max open files" line of a {@code /proc/PID/limits} file; "unlimited" is Long.MAX_VALUE. */
    static long softLimit(java.util.List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("Max open files")) {
                String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                return fields[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(fields[0]);
            }
        }
        return 0;
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
