package io.hikyaku.kms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SSE-SQS data keys derived from the account's SQS owned key, and that key's yearly rotation, on an injected clock. */
class SqsOwnedDataKeysTest {

    static final String ACCOUNT = "000000000000";
    static final Map<String, String> QUEUE = Map.of("aws:sqs:arn", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":q");
    final AtomicLong now = new AtomicLong(Instant.parse("2026-12-07T09:00:00Z").toEpochMilli());
    final Clock clock = new Clock() {
        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return Instant.ofEpochMilli(now.get()); }
    };
    final SecureRandom random = new SecureRandom();
    final MasterKey master = MasterKey.ephemeral(random);

    @TempDir
    Path dir;

    DataKeys dataKeys(KmsKeys keys) {
        return new DataKeys(new KeyCrypto(keys, master, clock, n -> {
            byte[] b = new byte[n];
            random.nextBytes(b);
            return b;
        }));
    }

    @Test
    void aDerivedKeyIsNamedByTwentyBytesAndOpensOnlyUnderItsOwnQueueAndAccount() throws Exception {
        DataKeys keys = dataKeys(KmsKeys.open(KmsJournal.memory(), "us-east-1"));
        DataKeys.DataKey k = keys.deriveSqsOwned(ACCOUNT, QUEUE);
        assertEquals(DerivedDataKey.REFERENCE_BYTES, k.ciphertextBlob().length);
        assertEquals(32, k.plaintext().length);
        assertArrayEquals(k.plaintext(), keys.openDerivedSqsOwned(ACCOUNT, k.ciphertextBlob(), QUEUE));
        byte[] otherQueue = keys.openDerivedSqsOwned(ACCOUNT, k.ciphertextBlob(),
                Map.of("aws:sqs:arn", "arn:aws:sqs:us-east-1:" + ACCOUNT + ":other"));
        assertFalse(java.util.Arrays.equals(k.plaintext(), otherQueue), "another queue derives another key");
        assertFalse(java.util.Arrays.equals(k.plaintext(), keys.deriveSqsOwned(ACCOUNT, QUEUE).plaintext()),
                "a fresh salt each time");
        assertEquals("InvalidCiphertextException", assertThrows(KmsException.class,
                () -> keys.openDerivedSqsOwned("111111111111", k.ciphertextBlob(), QUEUE)).code(), "no owned key there");
        byte[] unknownVersion = k.ciphertextBlob().clone();
        unknownVersion[3] = 9;
        assertEquals("InvalidCiphertextException", assertThrows(KmsException.class,
                () -> keys.openDerivedSqsOwned(ACCOUNT, unknownVersion, QUEUE)).code());
    }

    @Test
    void theOwnedKeyRotatesYearlyAndEveryOldKeyStillOpensAfterAReplay() throws Exception {
        KmsKeys store = KmsKeys.open(KmsCommandLog.inDataDir(dir), "us-east-1");
        DataKeys keys = dataKeys(store);
        DataKeys.DataKey first = keys.deriveSqsOwned(ACCOUNT, QUEUE);
        DataKeys.DataKey wrappedFirst = keys.generateSqsOwned(ACCOUNT, QUEUE); // the form of version-1 messages
        now.addAndGet((DataKeys.SQS_OWNED_ROTATION_DAYS * 86_400L - 1) * 1000);
        assertEquals(1, DerivedDataKey.materialVersion(keys.deriveSqsOwned(ACCOUNT, QUEUE).ciphertextBlob()),
                "a second before the year is up");
        now.addAndGet(1000);
        DataKeys.DataKey rotated = keys.deriveSqsOwned(ACCOUNT, QUEUE);
        assertEquals(2, DerivedDataKey.materialVersion(rotated.ciphertextBlob()));
        assertEquals(2, DerivedDataKey.materialVersion(keys.deriveSqsOwned(ACCOUNT, QUEUE).ciphertextBlob()), "once");
        String digest = store.digest();
        store.close();

        KmsKeys replayed = KmsKeys.open(KmsCommandLog.inDataDir(dir), "us-east-1");
        assertEquals(digest, replayed.digest());
        DataKeys again = dataKeys(replayed);
        assertArrayEquals(first.plaintext(), again.openDerivedSqsOwned(ACCOUNT, first.ciphertextBlob(), QUEUE));
        assertArrayEquals(rotated.plaintext(), again.openDerivedSqsOwned(ACCOUNT, rotated.ciphertextBlob(), QUEUE));
        assertArrayEquals(wrappedFirst.plaintext(), again.decryptSqsOwned(ACCOUNT, wrappedFirst.ciphertextBlob(), QUEUE));
        replayed.close();
    }
}
