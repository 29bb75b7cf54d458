package io.hikyaku.store.rocksdb;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's JNI library from a per-user cache instead of a fresh temp file per start.
 *
 * <p>RocksDB's own loader copies its 15 MB library to a new {@code /tmp/librocksdbjni*.so} on every
 * start and deletes it only at a clean exit, so every {@code kill -9} (or crash) leaks one. Here the
 * library is extracted once per library build (named by the jar entry's CRC-32 and size) into
 * {@code hikyaku.native.dir}, {@code $HIKYAKU_NATIVE_DIR}, {@code $XDG_CACHE_HOME/hikyaku/native} or
 * {@code ~/.cache/hikyaku/native} (directories created 0700), written to a temp name and renamed
 * atomically, and verified against the CRC before each load. Anything unexpected falls back to
 * RocksDB's default loader, so this can only make start-up cheaper, never break it.
 */
final class NativeLibrary {

    private NativeLibrary() {
    }

    static void load() {
        try {
            Path dir = cachedLibraryDir(cacheRoot());
            if (dir != null) {
                RocksDB.loadLibrary(List.of(dir.toString()));
                return;
            }
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            // fall back below
        }
        RocksDB.loadLibrary();
    }

    /** The directory holding the verified library under the name RocksDB probes, or null. */
    static Path cachedLibraryDir(Path root) throws IOException {
        URL url = RocksDB.class.getResource("/" + Environment.getJniLibraryFileName("rocksdb"));
        if (root == null || url == null) {
            return null;
        }
        URLConnection connection = url.openConnection();
        if (!(connection instanceof JarURLConnection jar)) {
            return null;
        }
        JarEntry entry = jar.getJarEntry();
        if (entry.getCrc() < 0 || entry.getSize() <= 0) {
            return null;
        }
        Path dir = root.resolve("rocksdbjni-" + Long.toHexString(entry.getCrc()) + "-" + entry.getSize());
        // RocksDB.loadLibrary(paths) probes this name in each path.
        Path lib = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
        if (!matches(lib, entry)) {
            createPrivateDirectories(dir);
            Path tmp = Files.createTempFile(dir, "extract-", ".tmp");
            try (InputStream in = connection.getInputStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            if (!matches(lib, entry)) {
                return null;
            }
        }
        return dir;
    }

    static Path cacheRoot() {
        String explicit = System.getProperty("hikyaku.native.dir", System.getenv("HIKYAKU_NATIVE_DIR"));
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "hikyaku", "native");
        }
        String home = System.getProperty("user.home");
        return home == null || home.isBlank() || home.equals("?") ? null : Path.of(home, ".cache", "hikyaku", "native");
    }

    private static boolean matches(Path lib, JarEntry entry) throws IOException {
        if (!Files.isRegularFile(lib) || Files.size(lib) != entry.getSize()) {
            return false;
        }
        CRC32 crc = new CRC32();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(lib)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                crc.update(buf, 0, n);
            }
        }
        return crc.getValue() == entry.getCrc();
    }

    private static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.getParent();
        if (parent != null) {
            createPrivateDirectories(parent);
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // another process made it first
        }
    }
}
