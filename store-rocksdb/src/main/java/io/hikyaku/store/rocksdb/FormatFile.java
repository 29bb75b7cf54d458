package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.OwnerOnly;
import io.hikyaku.engine.store.StoreException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The FORMAT file names the on-disk format version. A build refuses data it does not understand
 * rather than guess: an older build must never rewrite a newer layout.
 */
final class FormatFile {

    static final String NAME = "FORMAT";
    static final String MAGIC = "hikyaku-rocksdb-format";
    static final int CURRENT_VERSION = 1;

    private FormatFile() {}

    /** Writes FORMAT atomically (temp file, fsync, rename, fsync of the directory). */
    static void write(Path dir) {
        Path tmp = dir.resolve(NAME + ".tmp");
        byte[] content = (MAGIC + " " + CURRENT_VERSION + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            try (FileChannel ch = FileChannel.open(tmp, java.util.EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), OwnerOnly.file())) {
                ch.write(java.nio.ByteBuffer.wrap(content));
                ch.force(true);
            }
            Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE);
            fsyncDirectory(dir);
        } catch (IOException e) {
            throw new StoreException("data directory " + dir + " is not writable: "
                    + DataDirectory.describe(e), e);
        }
    }

    /** Throws unless FORMAT names a version this build reads. */
    static void check(Path dir) {
        String text;
        try {
            text = Files.readString(dir.resolve(NAME), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new StoreException("cannot read " + dir.resolve(NAME) + ": " + DataDirectory.describe(e), e);
        }
        String[] parts = text.split("\\s+");
        if (parts.length != 2 || !parts[0].equals(MAGIC)) {
            throw new StoreException("data directory " + dir + " has a FORMAT file that is not a Hikyaku "
                    + "RocksDB format (" + abbreviate(text) + "); refusing to open it");
        }
        int version;
        try {
            version = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new StoreException("data directory " + dir + " has an unreadable format version '"
                    + abbreviate(parts[1]) + "'; refusing to open it");
        }
        if (version > CURRENT_VERSION) {
            throw new StoreException("data directory " + dir + " uses storage format version " + version
                    + ", which is newer than this Hikyaku build understands (up to version " + CURRENT_VERSION
                    + "); refusing to open it so that it is not damaged. Run a newer Hikyaku.");
        }
        if (version < 1) {
            throw new StoreException("data directory " + dir + " has an invalid storage format version "
                    + version + "; refusing to open it");
        }
    }

    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
