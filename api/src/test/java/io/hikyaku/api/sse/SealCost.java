package io.hikyaku.api.sse;

import io.hikyaku.engine.MessageAttribute;
import java.security.SecureRandom;
import java.util.Map;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The CPU cost of sealing and opening one message body on this JVM (a timing loop, no JMH): run with
 * {@code java -cp api/target/classes:api/target/test-classes:<engine classes> io.hikyaku.api.sse.SealCost [bytes...]}
 * (docs/benchmarks.md, "Encryption at rest"). Prints microseconds per seal and per open for each size.
 */
public final class SealCost {

    private SealCost() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {256, 1024, 64 * 1024, 1024 * 1024} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        SecureRandom random = new SecureRandom();
        byte[] raw = new byte[32];
        random.nextBytes(raw);
        SecretKey key = new SecretKeySpec(raw, "AES");
        byte[] reference = new byte[20]; // an SSE-SQS data key reference (MessageEnvelope mode 3)
        int prefix = random.nextInt();
        long uses = 0;
        String arn = "arn:aws:sqs:us-east-1:000000000000:bench";
        for (int size : sizes) {
            String body = "x".repeat(size);
            Map<String, MessageAttribute> attrs = Map.of("a", new MessageAttribute("String", "value", null));
            int n = (int) Math.max(20, Math.min(200_000, 200_000_000L / size));
            for (int round = 0; round < 3; round++) { // the last round counts: the first ones warm the JIT
                long t0 = System.nanoTime();
                String sealed = null;
                for (int i = 0; i < n; i++) { // a counter nonce, as DataKeyCache makes them (no random draw)
                    byte[] nonce = java.nio.ByteBuffer.allocate(12).putInt(prefix).putLong(++uses).array();
                    sealed = MessageEnvelope.seal(MessageEnvelope.SQS_DERIVED, arn, reference, key, nonce, 0, body, attrs);
                }
                long t1 = System.nanoTime();
                MessageEnvelope.Payload p = null;
                for (int i = 0; i < n; i++) {
                    p = MessageEnvelope.open(MessageEnvelope.parse(sealed), key);
                }
                long t2 = System.nanoTime();
                if (round == 2) {
                    System.out.printf("body %d bytes: seal %.2f us, open %.2f us per message (%d messages; %s)%n", size,
                            (t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n, n, p.body().length() == size ? "ok" : "WRONG");
                }
            }
        }
    }
}
