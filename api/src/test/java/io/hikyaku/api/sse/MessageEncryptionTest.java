package io.hikyaku.api.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * SSE-SQS through the sealer and the opener with a key service in memory: new messages name a derived data key
 * by its short reference, and a message sealed by an earlier release (version 1, a wrapped key) still opens.
 */
class MessageEncryptionTest {

    private static final String ARN = "arn:aws:sqs:us-east-1:000000000000:q";

    /** Data keys by reference (derived) and by blob (wrapped); counts what the sealer and the opener asked for. */
    private static final class Keys implements SseKeys {
        final Map<String, byte[]> derived = new HashMap<>();
        final Map<String, byte[]> wrapped = new HashMap<>();
        final List<String> calls = new ArrayList<>();
        private final java.security.SecureRandom random = new java.security.SecureRandom();

        @Override
        public WrappedKey newSqsDerivedKey(String account, String queueArn) {
            calls.add("derive " + account);
            byte[] reference = new byte[20];
            byte[] key = new byte[32];
            random.nextBytes(reference);
            random.nextBytes(key);
            derived.put(java.util.HexFormat.of().formatHex(reference) + queueArn, key.clone());
            return new WrappedKey("arn:sqs-owned", key, reference);
        }

        @Override
        public byte[] openSqsDerivedKey(String account, byte[] reference, String queueArn) {
            calls.add("open derived");
            return derived.get(java.util.HexFormat.of().formatHex(reference) + queueArn).clone();
        }

        @Override
        public byte[] openSqsOwnedKey(String account, byte[] blob, String queueArn) {
            calls.add("open wrapped");
            return wrapped.get(java.util.HexFormat.of().formatHex(blob)).clone();
        }

        @Override
        public KeyState usableKey(String account, String keyId) {
            throw new AssertionError("SSE-SQS uses no KMS key");
        }

        @Override
        public KeyState usableKeyOf(byte[] blob) {
            throw new AssertionError("SSE-SQS uses no KMS key");
        }

        @Override
        public WrappedKey newKmsKey(String account, String keyArn, String queueArn) {
            throw new AssertionError("SSE-SQS uses no KMS key");
        }

        @Override
        public byte[] openKmsKey(byte[] blob, String queueArn) {
            throw new AssertionError("SSE-SQS uses no KMS key");
        }
    }

    private static ReceivedMessage received(String body) {
        return new ReceivedMessage("id", "handle", body, null, "sender", 1L, 1, 1L, null, null, null, null, null, null);
    }

    @Test
    void newMessagesNameTheirDerivedKeyByAShortReferenceAndOldWrappedOnesStillOpen() {
        Keys keys = new Keys();
        MessageEncryption enc = new MessageEncryption(keys, new MutableClock(Instant.parse("2026-12-07T12:00:00Z")),
                DataKeyCache.DEFAULT_MAX_USES);
        MessageEncryption.Sealer sealer = enc.sealer(new QueueSse(QueueSse.Mode.SQS, ARN, null, 300, false), null);
        Map<String, MessageAttribute> attrs = Map.of("a", new MessageAttribute("String", "v", null));
        List<String> stored = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            stored.add(sealer.seal(new SendMessage("body " + i, i == 0 ? attrs : null, null, null, null, null, "s", "m" + i, null)).body());
        }
        assertThat(keys.calls).containsExactly("derive 000000000000");
        MessageEnvelope.Sealed first = MessageEnvelope.parse(stored.get(0));
        assertThat(first.mode()).isEqualTo(MessageEnvelope.SQS_DERIVED);
        assertThat(first.wrappedKey()).hasSize(20);
        assertThat(stored.get(0)).doesNotContain("body 0");

        // a body as version 1 stored it: the data key wrapped (150 bytes here) in the message
        byte[] oldKey = new byte[32];
        oldKey[0] = 7;
        byte[] blob = new byte[150];
        blob[0] = 1;
        keys.wrapped.put(java.util.HexFormat.of().formatHex(blob), oldKey);
        String v1 = MessageEnvelope.seal(1, MessageEnvelope.SQS, ARN, blob, new SecretKeySpec(oldKey, "AES"), new byte[12], 0,
                "stored by 0.1", null);

        MessageEncryption.Opener opener = enc.opener(null);
        for (int i = 0; i < 5; i++) {
            ReceivedMessage m = opener.open(received(stored.get(i)));
            assertThat(m.body()).isEqualTo("body " + i);
            assertThat(m.attributes()).isEqualTo(i == 0 ? attrs : null);
        }
        assertThat(opener.open(received(v1)).body()).isEqualTo("stored by 0.1");
        assertThat(opener.open(received("plain")).body()).as("never sealed").isEqualTo("plain");
        assertThat(keys.calls).as("each data key opened once")
                .containsExactly("derive 000000000000", "open derived", "open wrapped");
    }

    private static ReceivedMessage received(String id, String body) {
        return new ReceivedMessage(id, "handle", body, null, "sender", 1L, 1, 1L, null, null, null, null, null, null);
    }

    @Test
    void aMessageSealedHereLatelyOpensFromMemoryOnceAndOnlyWhenItsStoredBodyIsTheSealedOne() {
        Keys keys = new Keys();
        MutableClock clock = new MutableClock(Instant.parse("2026-12-07T12:00:00Z"));
        MessageEncryption enc = new MessageEncryption(keys, clock, DataKeyCache.DEFAULT_MAX_USES);
        MessageEncryption.Sealer sealer = enc.sealer(new QueueSse(QueueSse.Mode.SQS, ARN, null, 300, false), null);
        Map<String, MessageAttribute> attrs = Map.of("a", new MessageAttribute("String", "v", null));
        String first = sealer.seal(new SendMessage("first", attrs, null, null, null, null, "s", "m1", null)).body();
        String second = sealer.seal(new SendMessage("second", null, null, null, null, null, "s", "m2", null)).body();
        String third = sealer.seal(new SendMessage("third", Map.of(), null, null, null, null, "s", "m3", null)).body();
        assertThat(first).doesNotContain("first");

        MessageEncryption.Opener opener = enc.opener(null);
        ReceivedMessage m1 = opener.open(received("m1", first));
        assertThat(m1.body()).isEqualTo("first");
        assertThat(m1.attributes()).isEqualTo(attrs);
        assertThat(m1.messageId()).isEqualTo("m1");
        assertThat(keys.calls).as("nothing decrypted").containsExactly("derive 000000000000");

        // taken once: a second receive of the same message decrypts it
        assertThat(opener.open(received("m1", first)).body()).isEqualTo("first");
        assertThat(keys.calls).containsExactly("derive 000000000000", "open derived");

        // a stored body other than the one sealed under that id is decrypted, never answered from memory
        assertThat(opener.open(received("m2", third)).body()).isEqualTo("third");
        assertThat(opener.open(received("m2", second)).body()).isEqualTo("second");
        // an empty attribute map opens as none, as a decrypted one does
        assertThat(opener.open(received("m3", third)).attributes()).isNull();

        // another process (a restart) has nothing in memory: it decrypts
        MessageEncryption restarted = new MessageEncryption(keys, clock, DataKeyCache.DEFAULT_MAX_USES);
        int before = keys.calls.size();
        String fourth = sealer.seal(new SendMessage("fourth", null, null, null, null, null, "s", "m4", null)).body();
        assertThat(restarted.opener(null).open(received("m4", fourth)).body()).isEqualTo("fourth");
        assertThat(keys.calls.subList(before, keys.calls.size())).containsExactly("open derived");
    }

    @Test
    void theMemoryOfSealedMessagesIsBoundedOldestFirst() {
        SealedPlaintexts recent = new SealedPlaintexts();
        for (int i = 0; i <= SealedPlaintexts.MAX_ENTRIES; i++) {
            recent.remember("m" + i, new SealedPlaintexts.Plain("s" + i, "b", null, MessageEnvelope.SQS_DERIVED, new byte[20], ARN, 10));
        }
        assertThat(recent.size()).isEqualTo(SealedPlaintexts.MAX_ENTRIES);
        assertThat(recent.take("m0", "s0")).as("the oldest went first").isNull();
        assertThat(recent.take("m" + SealedPlaintexts.MAX_ENTRIES, "s" + SealedPlaintexts.MAX_ENTRIES)).isNotNull();

        SealedPlaintexts bytes = new SealedPlaintexts();
        long each = SealedPlaintexts.MAX_BYTES / 4;
        for (int i = 0; i < 5; i++) {
            bytes.remember("m" + i, new SealedPlaintexts.Plain("s" + i, "b", null, MessageEnvelope.SQS_DERIVED, new byte[20], ARN, each));
        }
        assertThat(bytes.size()).isEqualTo(4);
        assertThat(bytes.take("m0", "s0")).isNull();
        String big = "x".repeat(SealedPlaintexts.MAX_BODY_CHARS + 1);
        bytes.remember("huge", new SealedPlaintexts.Plain("s", big, null, MessageEnvelope.SQS_DERIVED, new byte[20], ARN, 1));
        assertThat(bytes.take("huge", "s")).as("a long body is not kept").isNull();
    }
}
