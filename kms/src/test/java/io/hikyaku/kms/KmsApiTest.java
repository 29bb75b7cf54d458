package io.hikyaku.kms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key service on an injected clock: deletion windows, rotation, replay, the master key, the SSE door. */
class KmsApiTest {

    static final String ACCOUNT = "000000000000";
    final AtomicLong now = new AtomicLong(Instant.parse("2026-12-07T09:00:00Z").toEpochMilli());
    final Clock clock = new Clock() {
        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return Instant.ofEpochMilli(now.get()); }
    };
    final SecureRandom random = new SecureRandom();

    KeyCrypto crypto(KmsKeys keys, MasterKey master) {
        return new KeyCrypto(keys, master, clock, n -> {
            byte[] b = new byte[n];
            random.nextBytes(b);
            return b;
        });
    }

    static JsonNode call(KmsApi api, String op, String body) throws Exception {
        HttpResponseData r = api.handle(new HttpRequestData("POST", "/", "", Map.of("x-amz-target", "TrentService." + op,
                "content-type", "application/x-amz-json-1.1"), body.getBytes(StandardCharsets.UTF_8)), ACCOUNT);
        JsonNode json = KmsApi.JSON.readTree(r.body());
        if (r.status() != 200) {
            return KmsApi.JSON.createObjectNode().put("status", r.status()).put("__type", json.path("__type").asText())
                    .put("message", json.path("message").asText(null));
        }
        return json;
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aKeyIsDeletedOnlyAfterItsWindowAndCancelLeavesItDisabled() throws Exception {
        KmsApi api = new KmsApi(crypto(KmsKeys.open(KmsJournal.memory(), "us-east-1"), MasterKey.ephemeral(random)));
        String keyId = call(api, "CreateKey", "{}").path("KeyMetadata").path("KeyId").asText();
        JsonNode scheduled = call(api, "ScheduleKeyDeletion", "{\"KeyId\":\"" + keyId + "\",\"PendingWindowInDays\":7}");
        assertEquals("PendingDeletion", scheduled.path("KeyState").asText());
        assertEquals(7, scheduled.path("PendingWindowInDays").asInt());
        assertEquals("KMSInvalidStateException", call(api, "Encrypt", "{\"KeyId\":\"" + keyId + "\",\"Plaintext\":\"" + b64("x") + "\"}").path("__type").asText());

        now.addAndGet(7 * KmsApi.DAY_MILLIS - 1); // one millisecond before the end of the window: still there
        assertEquals("PendingDeletion", call(api, "DescribeKey", "{\"KeyId\":\"" + keyId + "\"}").path("KeyMetadata").path("KeyState").asText());
        now.addAndGet(1);
        JsonNode gone = call(api, "DescribeKey", "{\"KeyId\":\"" + keyId + "\"}");
        assertEquals("NotFoundException", gone.path("__type").asText());
        assertEquals("Key 'arn:aws:kms:us-east-1:" + ACCOUNT + ":key/" + keyId + "' does not exist", gone.path("message").asText());

        String other = call(api, "CreateKey", "{}").path("KeyMetadata").path("KeyId").asText();
        call(api, "ScheduleKeyDeletion", "{\"KeyId\":\"" + other + "\"}");
        assertEquals("ValidationException", call(api, "ScheduleKeyDeletion", "{\"KeyId\":\"" + other + "\",\"PendingWindowInDays\":6}").path("__type").asText());
        call(api, "CancelKeyDeletion", "{\"KeyId\":\"" + other + "\"}");
        now.addAndGet(31 * KmsApi.DAY_MILLIS);
        assertEquals("Disabled", call(api, "DescribeKey", "{\"KeyId\":\"" + other + "\"}").path("KeyMetadata").path("KeyState").asText());
    }

    @Test
    void rotationKeepsOldMaterialForDecryption() throws Exception {
        KmsApi api = new KmsApi(crypto(KmsKeys.open(KmsJournal.memory(), "us-east-1"), MasterKey.ephemeral(random)));
        String keyId = call(api, "CreateKey", "{}").path("KeyMetadata").path("KeyId").asText();
        String before = call(api, "Encrypt", "{\"KeyId\":\"" + keyId + "\",\"Plaintext\":\"" + b64("old") + "\"}").path("CiphertextBlob").asText();
        call(api, "EnableKeyRotation", "{\"KeyId\":\"" + keyId + "\"}");
        assertTrue(call(api, "GetKeyRotationStatus", "{\"KeyId\":\"" + keyId + "\"}").path("KeyRotationEnabled").asBoolean());
        call(api, "RotateKeyOnDemand", "{\"KeyId\":\"" + keyId + "\"}");
        String after = call(api, "Encrypt", "{\"KeyId\":\"" + keyId + "\",\"Plaintext\":\"" + b64("new") + "\"}").path("CiphertextBlob").asText();
        assertEquals(b64("old"), call(api, "Decrypt", "{\"CiphertextBlob\":\"" + before + "\"}").path("Plaintext").asText());
        assertEquals(b64("new"), call(api, "Decrypt", "{\"CiphertextBlob\":\"" + after + "\"}").path("Plaintext").asText());
        assertEquals(2, CiphertextBlob.parse(Base64.getDecoder().decode(after)).materialVersion());
    }

    @Test
    void replayingTheLogRebuildsTheSameStateAndTheWrongMasterKeyFailsTheStart(@TempDir Path data) throws Exception {
        String digest;
        String blob;
        try (KmsService kms = KmsService.start(data, null, "us-east-1", clock)) {
            String keyId = call(kms.api(), "CreateKey", "{\"Description\":\"d\",\"Tags\":[{\"TagKey\":\"a\",\"TagValue\":\"b\"}]}")
                    .path("KeyMetadata").path("KeyId").asText();
            call(kms.api(), "CreateAlias", "{\"AliasName\":\"alias/app\",\"TargetKeyId\":\"" + keyId + "\"}");
            call(kms.api(), "DisableKey", "{\"KeyId\":\"alias/app\"}");
            call(kms.api(), "EnableKey", "{\"KeyId\":\"alias/app\"}");
            blob = call(kms.api(), "Encrypt", "{\"KeyId\":\"alias/app\",\"Plaintext\":\"" + b64("kept") + "\",\"EncryptionContext\":{\"k\":\"v\"}}")
                    .path("CiphertextBlob").asText();
            digest = kms.digest();
        }
        Path master = data.resolve("kms").resolve("master.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(master)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("kms").resolve("commands.log"))));
        String log = new String(Files.readAllBytes(data.resolve("kms").resolve("commands.log")), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(log.contains(Files.readString(master).trim()), "the log never holds the master key");
        try (KmsService kms = KmsService.start(data, null, "us-east-1", clock)) {
            assertEquals(digest, kms.digest());
            assertEquals(b64("kept"), call(kms.api(), "Decrypt", "{\"CiphertextBlob\":\"" + blob + "\",\"EncryptionContext\":{\"k\":\"v\"}}")
                    .path("Plaintext").asText());
        }
        Path otherMaster = data.resolve("other.key");
        Files.writeString(otherMaster, "00".repeat(32));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> KmsService.start(data, otherMaster, "us-east-1", clock));
        assertTrue(refused.getMessage().contains("does not open with this master key"), refused.getMessage());
    }

    @Test
    void errorsHaveAwsShapes() throws Exception {
        KmsApi api = new KmsApi(crypto(KmsKeys.open(KmsJournal.memory(), "us-east-1"), MasterKey.ephemeral(random)));
        assertEquals("UnknownOperationException", call(api, "ImportKeyMaterial", "{}").path("__type").asText());
        assertEquals("UnsupportedOperationException", call(api, "CreateKey", "{\"KeySpec\":\"RSA_2048\"}").path("__type").asText());
        assertEquals("ValidationException", call(api, "CreateKey", "{\"KeySpec\":\"NOPE\"}").path("__type").asText());
        assertEquals("ValidationException", call(api, "CreateKey", "{\"KeyUsage\":\"SIGN_VERIFY\"}").path("__type").asText());
        assertEquals("Invalid keyId 'fake-key-id'", call(api, "DescribeKey", "{\"KeyId\":\"fake-key-id\"}").path("message").asText());
        String keyId = call(api, "CreateKey", "{}").path("KeyMetadata").path("KeyId").asText();
        JsonNode bad = call(api, "CreateAlias", "{\"AliasName\":\"app\",\"TargetKeyId\":\"" + keyId + "\"}");
        assertEquals("Alias must start with the prefix \"alias/\". Please see https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html",
                bad.path("message").asText());
        call(api, "CreateAlias", "{\"AliasName\":\"alias/app\",\"TargetKeyId\":\"" + keyId + "\"}");
        assertEquals("AlreadyExistsException", call(api, "CreateAlias", "{\"AliasName\":\"alias/app\",\"TargetKeyId\":\"" + keyId + "\"}").path("__type").asText());
        assertEquals("ValidationException", call(api, "Encrypt", "{\"KeyId\":\"" + keyId + "\",\"Plaintext\":\""
                + Base64.getEncoder().encodeToString(new byte[4097]) + "\"}").path("__type").asText());
        assertEquals("InvalidCiphertextException", call(api, "Decrypt", "{\"CiphertextBlob\":\"" + b64("not a blob") + "\"}").path("__type").asText());
        call(api, "DisableKey", "{\"KeyId\":\"" + keyId + "\"}");
        JsonNode disabled = call(api, "GenerateDataKey", "{\"KeyId\":\"" + keyId + "\",\"KeySpec\":\"AES_256\"}");
        assertEquals("DisabledException", disabled.path("__type").asText());
        assertEquals("arn:aws:kms:us-east-1:" + ACCOUNT + ":key/" + keyId + " is disabled.", disabled.path("message").asText());
    }

    @Test
    void dataKeysForSseAreBoundToTheirContextAndFollowTheKeyState() throws Exception {
        KeyCrypto crypto = crypto(KmsKeys.open(KmsJournal.memory(), "us-east-1"), MasterKey.ephemeral(random));
        DataKeys dataKeys = new DataKeys(crypto);
        Map<String, String> context = Map.of("aws:sqs:arn", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":q");
        DataKeys.DataKey key = dataKeys.generate(ACCOUNT, KeyCrypto.SQS_MANAGED_ALIAS, context);
        assertEquals(32, key.plaintext().length);
        assertArrayEquals(key.plaintext(), dataKeys.decrypt(key.ciphertextBlob(), context));
        KmsException wrong = assertThrows(KmsException.class,
                () -> dataKeys.decrypt(key.ciphertextBlob(), Map.of("aws:sqs:arn", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":other")));
        assertEquals("InvalidCiphertextException", wrong.code());
        // the managed key exists once per account, and is AWS managed
        assertEquals(key.keyArn(), dataKeys.generate(ACCOUNT, KeyCrypto.SQS_MANAGED_ALIAS, context).keyArn());
        assertNotEquals(key.keyArn(), dataKeys.generate("111111111111", KeyCrypto.SQS_MANAGED_ALIAS, context).keyArn());
        KmsApi api = new KmsApi(crypto);
        assertEquals("AWS", call(api, "DescribeKey", "{\"KeyId\":\"alias/aws/sqs\"}").path("KeyMetadata").path("KeyManager").asText());
        String own = call(api, "CreateKey", "{}").path("KeyMetadata").path("KeyId").asText();
        DataKeys.DataKey mine = dataKeys.generate(ACCOUNT, own, context);
        call(api, "DisableKey", "{\"KeyId\":\"" + own + "\"}");
        assertEquals("DisabledException", assertThrows(KmsException.class, () -> dataKeys.decrypt(mine.ciphertextBlob(), context)).code());
        call(api, "EnableKey", "{\"KeyId\":\"" + own + "\"}");
        assertArrayEquals(mine.plaintext(), dataKeys.decrypt(mine.ciphertextBlob(), context));
    }
}
