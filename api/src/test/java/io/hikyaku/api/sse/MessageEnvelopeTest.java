package io.hikyaku.api.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.SealedBody;
import io.hikyaku.testsupport.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class MessageEnvelopeTest {

    private static final String ARN = "arn:aws:sqs:us-east-1:000000000000:q";
    private final SecretKey key = new SecretKeySpec(new byte[32], "AES");
    private final java.security.SecureRandom random = new java.security.SecureRandom();

    private String seal(String body, Map<String, MessageAttribute> attrs) {
        byte[] nonce = new byte[12]; // a fresh one each time: GCM (and the JDK) refuse a nonce twice under one key
        random.nextBytes(nonce);
        return MessageEnvelope.seal(MessageEnvelope.KMS, ARN, new byte[] {1, 2, 3}, key, nonce, 0, body, attrs);
    }

    @Test
    void bodiesAndAttributesOfEverySizeRoundTripAndTheEngineReadsTheirSize() {
        Map<String, MessageAttribute> attrs = Map.of("s", new MessageAttribute("String", "välue", null),
                "b", new MessageAttribute("Binary", null, new byte[] {0, 1, (byte) 255}));
        for (int size : new int[] {1, 100, 32 * 1024 - 40, 32 * 1024, 32 * 1024 + 1, 3 * 32 * 1024, 1024 * 1024}) {
            String body = "é".repeat(size / 2) + "x".repeat(size % 2);
            String sealed = seal(body, attrs);
            assertThat(SealedBody.isSealed(sealed)).isTrue();
            assertThat(SealedBody.countedSize(sealed)).isEqualTo(body.getBytes(StandardCharsets.UTF_8).length);
            assertThat(sealed).doesNotContain("é");
            MessageEnvelope.Sealed s = MessageEnvelope.parse(sealed);
            assertThat(s.queueArn()).isEqualTo(ARN);
            assertThat(s.wrappedKey()).containsExactly(1, 2, 3);
            MessageEnvelope.Payload p = MessageEnvelope.open(s, key);
            assertThat(p.body()).isEqualTo(body);
            assertThat(p.attributes().get("s").stringValue()).isEqualTo("välue");
            assertThat(p.attributes().get("b").binaryValue()).containsExactly(0, 1, 255);
        }
        assertThat(MessageEnvelope.open(MessageEnvelope.parse(seal("no attributes", null)), key).attributes()).isNull();
    }

    @Test
    void anotherKeyAChangedByteADroppedSegmentOrAnotherHeaderDoNotOpen() {
        String body = "y".repeat(70_000); // three segments
        MessageEnvelope.Sealed s = MessageEnvelope.parse(seal(body, null));
        assertThat(MessageEnvelope.open(s, new SecretKeySpec(filled(7), "AES"))).as("another key").isNull();
        byte[] env = s.envelope().clone();
        env[env.length - 100] ^= 1;
        assertThat(MessageEnvelope.open(new MessageEnvelope.Sealed(s.mode(), s.queueArn(), s.wrappedKey(), env, s.headerLength()), key)).isNull();
        byte[] truncated = java.util.Arrays.copyOf(s.envelope(), s.headerLength() + 2 * (32 * 1024 + 16));
        assertThat(MessageEnvelope.open(new MessageEnvelope.Sealed(s.mode(), s.queueArn(), s.wrappedKey(), truncated, s.headerLength()), key))
                .as("the last segment dropped").isNull();
        byte[] other = s.envelope().clone();
        other[5] ^= 1; // a byte of the queue ARN: the header is authenticated
        assertThat(MessageEnvelope.open(new MessageEnvelope.Sealed(s.mode(), s.queueArn(), s.wrappedKey(), other, s.headerLength()), key)).isNull();
        assertThat(MessageEnvelope.parse(SealedBody.PREFIX + "1:5:" + Base64.getEncoder().encodeToString("short".getBytes(StandardCharsets.UTF_8))))
                .isNull();
    }

    @Test
    void versionOneBodiesStillOpenAndEachVersionTakesOnlyItsOwnModes() {
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        String v1 = MessageEnvelope.seal(1, MessageEnvelope.SQS, ARN, new byte[150], key, nonce, 0, "old", null);
        assertThat(v1).startsWith(SealedBody.PREFIX + "1:3:");
        MessageEnvelope.Sealed s = MessageEnvelope.parse(v1);
        assertThat(s.mode()).isEqualTo(MessageEnvelope.SQS);
        assertThat(MessageEnvelope.open(s, key).body()).isEqualTo("old");

        random.nextBytes(nonce);
        String v2 = MessageEnvelope.seal(MessageEnvelope.SQS_DERIVED, ARN, new byte[20], key, nonce, 0, "x".repeat(256), null);
        assertThat(v2).startsWith(SealedBody.PREFIX + "2:256:");
        assertThat(MessageEnvelope.parse(v2).headerLength()).as("mode, ARN, a 20-byte reference, nonce")
                .isEqualTo(1 + 2 + ARN.length() + 2 + 20 + 12);
        assertThat(MessageEnvelope.open(MessageEnvelope.parse(v2), key).body()).isEqualTo("x".repeat(256));

        random.nextBytes(nonce);
        assertThat(MessageEnvelope.parse(MessageEnvelope.seal(1, MessageEnvelope.SQS_DERIVED, ARN, new byte[20], key, nonce, 0, "b", null)))
                .as("a derived key in a version 1 body").isNull();
        random.nextBytes(nonce);
        assertThat(MessageEnvelope.parse(MessageEnvelope.seal(2, MessageEnvelope.SQS, ARN, new byte[150], key, nonce, 0, "b", null)))
                .as("a wrapped SQS key in a version 2 body").isNull();
    }

    @Test
    void aDataKeyIsReusedForItsPeriodAndItsUseBoundWithNoNonceTwice() {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-07T12:00:00Z"));
        DataKeyCache cache = new DataKeyCache(clock, 3);
        int[] made = {0};
        java.util.function.Supplier<SseKeys.WrappedKey> fresh = () -> {
            made[0]++;
            return new SseKeys.WrappedKey("arn", filled(made[0]), new byte[] {(byte) made[0]});
        };
        Set<String> nonces = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            assertThat(nonces.add(Base64.getEncoder().encodeToString(cache.forSealing("q", 60, fresh).nonce()))).isTrue();
        }
        assertThat(made[0]).isEqualTo(1);
        cache.forSealing("q", 60, fresh);
        assertThat(made[0]).as("past the bound of uses").isEqualTo(2);
        clock.advance(Duration.ofSeconds(59));
        cache.forSealing("q", 60, fresh);
        assertThat(made[0]).isEqualTo(2);
        clock.advance(Duration.ofSeconds(1));
        cache.forSealing("q", 60, fresh);
        assertThat(made[0]).as("past the period").isEqualTo(3);
        assertThat(cache.generated()).isEqualTo(3);
    }

    private static byte[] filled(int v) {
        byte[] b = new byte[32];
        java.util.Arrays.fill(b, (byte) v);
        return b;
    }
}
