package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.OwnerOnly;
import io.hikyaku.engine.store.StoreException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * The data directory of one store: created if missing, locked against a second user (also across
 * processes), and checked for a FORMAT file we understand before RocksDB touches anything.
 */
final class DataDirectory implements AutoCloseable {

    static final String LOCK_FILE = "hikyaku.lock";
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DataDirectory.class);

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(Path dir, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Creates (if needed), locks and format-checks {@code dir}; a new directory gets a FORMAT file. */
    static DataDirectory open(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        createIfMissing(abs);
        DataDirectory locked = lock(abs);
        try {
            boolean fresh = !Files.exists(abs.resolve(FormatFile.NAME));
            if (fresh) {
                refuseForeignContent(abs);
                FormatFile.write(abs);
            } else {
                FormatFile.check(abs);
            }
            return locked;
        } catch (RuntimeException e) {
            locked.close();
            throw e;
        }
    }

    Path path() {
        return dir;
    }

    /**
     * A new directory is made 0700 (RocksDB creates its files with the process umask, often
     * world-readable: the directory keeps other users out of them); an existing one is tightened.
     */
    private static void createIfMissing(Path dir) {
        if (Files.isDirectory(dir)) {
            try {
                var removed = OwnerOnly.tighten(dir);
                if (!removed.isEmpty()) {
                    LOG.warn("Data directory {} was open to other users ({}); now owner-only (rwx------)", dir, OwnerOnly.describe(removed));
                }
            } catch (IOException e) {
                throw new StoreException("cannot make data directory " + dir + " owner-only: " + describe(e), e);
            }
            return;
        }
        if (Files.exists(dir)) {
            throw new StoreException("data directory " + dir + " is not a directory");
        }
        try {
            OwnerOnly.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("cannot create data directory " + dir + ": " + describe(e), e);
        }
    }

    private static DataDirectory lock(Path dir) {
        FileChannel channel;
        try {
            channel = FileChannel.open(dir.resolve(LOCK_FILE), java.util.EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE), OwnerOnly.file());
        } catch (IOException e) {
            throw new StoreException("data directory " + dir + " is not writable: " + describe(e), e);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(dir);
            }
            return new DataDirectory(dir, channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(dir);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StoreException("cannot lock data directory " + dir + ": " + describe(e), e);
        } catch (StoreException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    static StoreException inUse(Path dir) {
        return new StoreException("data directory " + dir + " is in use by another Hikyaku process");
    }

    /** Never adopt a directory that holds someone else's files: we could delete or corrupt them. */
    private static void refuseForeignContent(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            boolean foreign = entries.anyMatch(p -> !p.getFileName().toString().equals(LOCK_FILE)
                    && !p.getFileName().toString().startsWith(FormatFile.NAME));
            if (foreign) {
                throw new StoreException("data directory " + dir + " is not empty and has no "
                        + FormatFile.NAME + " file, so it is not a Hikyaku data directory; refusing to use it");
            }
        } catch (IOException e) {
            throw new StoreException("cannot list data directory " + dir + ": " + describe(e), e);
        }
    }

    static String describe(IOException e) {
        String kind = e.getClass().getSimpleName();
        return e.getMessage() == null ? kind : kind + " " + e.getMessage();
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing useful to do: we are already reporting a failure
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases the lock as well
        }
        closeQuietly(lockChannel);
    }
}
