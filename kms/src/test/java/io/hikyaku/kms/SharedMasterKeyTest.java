package io.hikyaku.kms;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cluster mode's start check: every node must be given the same master key file, never make its own. */
class SharedMasterKeyTest {

    @Test
    void aClusterNodeNeedsAReadableMasterKeyFile(@TempDir Path dir) throws Exception {
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> KmsService.checkSharedMasterKey(null));
        assertTrue(none.getMessage().contains("cluster mode needs HIKYAKU_MASTER_KEY_FILE"), none.getMessage());

        Path missing = dir.resolve("missing.key");
        IllegalStateException absent = assertThrows(IllegalStateException.class, () -> KmsService.checkSharedMasterKey(missing));
        assertTrue(absent.getMessage().contains("does not exist"), absent.getMessage());
        assertTrue(Files.notExists(missing), "a given key file is never created");

        Path bad = dir.resolve("bad.key");
        Files.writeString(bad, "not hex\n");
        IllegalStateException unreadable = assertThrows(IllegalStateException.class, () -> KmsService.checkSharedMasterKey(bad));
        assertTrue(unreadable.getMessage().contains("64 hex digits"), unreadable.getMessage());

        Path good = dir.resolve("master.key");
        Files.writeString(good, "ab".repeat(32) + "\n");
        assertDoesNotThrow(() -> KmsService.checkSharedMasterKey(good));
    }
}
