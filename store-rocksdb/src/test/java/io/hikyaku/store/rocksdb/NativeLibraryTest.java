package io.hikyaku.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.util.Environment;

/** The JNI library cache: extracted once, reused, repaired when damaged, private to the user. */
class NativeLibraryTest {

    @TempDir
    Path root;

    @Test
    void extractsOnceAndReusesTheVerifiedCopy() throws Exception {
        Path dir = NativeLibrary.cachedLibraryDir(root.resolve("a/b"));
        assertThat(dir).isNotNull().startsWith(root);
        Path lib = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
        assertThat(Files.size(lib)).isGreaterThan(1_000_000);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("a/b")))).isEqualTo("rwx------");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(lib); // no temp file left behind
        }

        FileTime marked = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(lib, marked);
        assertThat(NativeLibrary.cachedLibraryDir(root.resolve("a/b"))).isEqualTo(dir);
        assertThat(Files.getLastModifiedTime(lib)).as("reused, not rewritten").isEqualTo(marked);
    }

    @Test
    void replacesADamagedCopy() throws Exception {
        Path dir = NativeLibrary.cachedLibraryDir(root);
        Path lib = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
        long size = Files.size(lib);
        byte[] bytes = Files.readAllBytes(lib);
        bytes[bytes.length / 2] ^= 0x5a; // same size, wrong content
        Files.write(lib, bytes);
        assertThat(NativeLibrary.cachedLibraryDir(root)).isEqualTo(dir);
        assertThat(Files.size(lib)).isEqualTo(size);
        assertThat(Files.readAllBytes(lib)[bytes.length / 2]).isNotEqualTo(bytes[bytes.length / 2]);

        Files.write(lib, new byte[10]); // truncated
        assertThat(NativeLibrary.cachedLibraryDir(root)).isEqualTo(dir);
        assertThat(Files.size(lib)).isEqualTo(size);
    }
}
