package io.hikyaku.kms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new master key: the previous one opens the materials once, they are wrapped again, and then it is not needed. */
class MasterKeyRotationTest {

    static final String ACCOUNT = KmsApiTest.ACCOUNT;
    static final Map<String, String> QUEUE = Map.of("aws:sqs:arn", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":q");
    final Clock clock = Clock.systemUTC();

    @Test
    void materialsAreWrappedAgainUnderTheNewMasterKeyAndEverythingStillOpens(@TempDir Path data) throws Exception {
        String blob;
        DataKeys.DataKey derived;
        DataKeys.DataKey wrapped;
        try (KmsService kms = KmsService.start(data, null, null, "us-east-1", clock)) {
            String keyId = KmsApiTest.call(kms.api(), "CreateKey", "{}").path("KeyMetadata").path("KeyId").asText();
            KmsApiTest.call(kms.api(), "RotateKeyOnDemand", "{\"KeyId\":\"" + keyId + "\"}"); // two versions
            blob = KmsApiTest.call(kms.api(), "Encrypt", "{\"KeyId\":\"" + keyId + "\",\"Plaintext\":\"" + KmsApiTest.b64("kept") + "\"}")
                    .path("CiphertextBlob").asText();
            derived = kms.dataKeys().deriveSqsOwned(ACCOUNT, QUEUE);
            wrapped = kms.dataKeys().generate(ACCOUNT, "alias/aws/sqs", QUEUE);
        }
        Path kmsDir = data.resolve("kms");
        String oldKey = Files.readString(kmsDir.resolve("master.key"));
        Files.move(kmsDir.resolve("master.key"), kmsDir.resolve("master.key.previous"));

        try (KmsService kms = KmsService.start(data, null, null, "us-east-1", clock)) { // makes a new master.key
            assertNotEquals(oldKey, Files.readString(kmsDir.resolve("master.key")));
            assertTrue(new String(Files.readAllBytes(kmsDir.resolve("commands.log")), java.nio.charset.StandardCharsets.ISO_8859_1).contains("RewrapMaterials"));
            check(kms, blob, derived, wrapped);
        }
        Files.delete(kmsDir.resolve("master.key.previous"));
        try (KmsService kms = KmsService.start(data, null, null, "us-east-1", clock)) {
            check(kms, blob, derived, wrapped);
        }
        String log = new String(Files.readAllBytes(kmsDir.resolve("commands.log")), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals(1, log.split("RewrapMaterials", -1).length - 1, "wrapped again once");

        Path stranger = data.resolve("stranger.key");
        Files.writeString(stranger, "11".repeat(32));
        Path other = data.resolve("other.key");
        Files.writeString(other, "22".repeat(32));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> KmsService.start(data, other, stranger, "us-east-1", clock));
        assertTrue(refused.getMessage().contains("opens with neither"), refused.getMessage());
        assertFalse(new String(Files.readAllBytes(kmsDir.resolve("commands.log")), java.nio.charset.StandardCharsets.ISO_8859_1).length() > log.length(), "nothing logged");
    }

    private static void check(KmsService kms, String blob, DataKeys.DataKey derived, DataKeys.DataKey wrapped) throws Exception {
        assertEquals(KmsApiTest.b64("kept"), KmsApiTest.call(kms.api(), "Decrypt", "{\"CiphertextBlob\":\"" + blob + "\"}")
                .path("Plaintext").asText());
        assertArrayEquals(derived.plaintext(), kms.dataKeys().openDerivedSqsOwned(ACCOUNT, derived.ciphertextBlob(), QUEUE));
        assertArrayEquals(wrapped.plaintext(), kms.dataKeys().decrypt(wrapped.ciphertextBlob(), QUEUE));
    }
}
