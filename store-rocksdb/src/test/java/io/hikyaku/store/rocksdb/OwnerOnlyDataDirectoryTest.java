package io.hikyaku.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RocksDB creates its table files with the process umask (often world-readable): the data directory
 * is made 0700 so that another local user cannot reach them, an existing one is tightened at open,
 * and a backup (checkpoint) directory is 0700 too.
 */
class OwnerOnlyDataDirectoryTest {

    @TempDir
    Path tmp;

    static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void aNewDataDirectoryIsOwnerOnlyAndSoIsItsLockFile() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(mode(dir)).isEqualTo("rwx------");
            assertThat(mode(dir.resolve(DataDirectory.LOCK_FILE))).isEqualTo("rw-------");
            assertThat(mode(dir.resolve(FormatFile.NAME))).isEqualTo("rw-------");
            Path backup = tmp.resolve("backups").resolve("b1");
            store.checkpoint(backup);
            assertThat(mode(backup)).isEqualTo("rwx------");
        }
    }

    @Test
    void anExistingDirectoryOpenToOthersIsTightenedAtOpen() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(store).isNotNull();
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(mode(dir)).isEqualTo("rwx------");
        }
    }
}
