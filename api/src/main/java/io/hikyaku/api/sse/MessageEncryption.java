package io.hikyaku.api.sse;

import io.hikyaku.api.CallContext;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SealedBody;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.Utf8;
import io.hikyaku.protocol.ApiException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.SecretKey;

/**
 * Encryption at rest of message data (SSE-SQS and SSE-KMS): the api seals a message's body and attributes
 * before the engine command is built, so neither the store (WAL, tables, backups) nor the journal holds them in
 * plain text, and opens them after a receive or a peek. The nonce and the data key are chosen here, outside the
 * engine, and travel in the command's body: the engine stays deterministic. Bodies without the sealed marker
 * (sent to a queue without SSE, or stored before encryption existed) are returned as they are.
 *
 * <p>SSE-KMS checks, once per call: the queue's key exists and is enabled (KMS.NotFoundException,
 * KMS.DisabledException, KMS.InvalidStateException), and the caller may use it: {@code kms:GenerateDataKey} and
 * {@code kms:Decrypt} to send, {@code kms:Decrypt} to receive (KMS.AccessDeniedException), with
 * {@code kms:ViaService} = {@code sqs.<region>.amazonaws.com} and the encryption context {@code aws:sqs:arn}. These
 * checks run on every call, cached data key or not, so a key disabled or a policy changed takes effect at once.
 */
public final class MessageEncryption {

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });
    private static final MessageEncryption OFF = new MessageEncryption(null, Clock.systemUTC(), DataKeyCache.DEFAULT_MAX_USES);

    private final SseKeys keys;
    private final DataKeyCache cache;
    private final SealedPlaintexts recent = new SealedPlaintexts();

    /** @param maxUses messages per data key at most ({@link DataKeyCache#DEFAULT_MAX_USES}) */
    public MessageEncryption(SseKeys keys, Clock clock, long maxUses) {
        this.keys = keys;
        this.cache = new DataKeyCache(clock, maxUses);
    }

    /** No encryption (no key service): bodies are stored as sent; a sealed body cannot be opened. */
    public static MessageEncryption off() {
        return OFF;
    }

    public boolean enabled() {
        return keys != null;
    }

    public DataKeyCache cache() {
        return cache;
    }

    /** Seals the messages of one send call to one queue; the checks run here, once. */
    public Sealer sealer(QueueSse sse, CallContext caller) {
        if (keys == null || !sse.encrypted()) {
            return null;
        }
        String owner = ownerOf(sse.queueArn());
        if (sse.mode() == QueueSse.Mode.SQS) {
            return sqsSealer(sse, owner);
        }
        SseKeys.KeyState key = keys.usableKey(owner, sse.kmsKeyId());
        authorize(caller, "kms:GenerateDataKey", key, sse.queueArn());
        authorize(caller, "kms:Decrypt", key, sse.queueArn());
        return kmsSealer(sse, owner, key, caller.senderId());
    }

    /**
     * Seals messages stored in plain text before their queue had SSE ({@code hikyaku reencrypt}, the operator's
     * offline command): with the queue's current key and data keys exactly as a send does, but with no caller to
     * authorize. Null when the queue has no SSE or there is no key service; a key that cannot be used now throws
     * the {@code Kms*} error a send would get.
     */
    public Sealer resealer(QueueSse sse) {
        if (keys == null || !sse.encrypted()) {
            return null;
        }
        String owner = ownerOf(sse.queueArn());
        if (sse.mode() == QueueSse.Mode.SQS) {
            return sqsSealer(sse, owner);
        }
        return kmsSealer(sse, owner, keys.usableKey(owner, sse.kmsKeyId()), "hikyaku reencrypt");
    }

    private Sealer sqsSealer(QueueSse sse, String owner) {
        return new Sealer(sse, MessageEnvelope.SQS_DERIVED, "S|" + sse.queueArn(), 300,
                () -> keys.newSqsDerivedKey(owner, sse.queueArn()));
    }

    /** Data keys are not shared between principals: {@code principal} is part of the cache key. */
    private Sealer kmsSealer(QueueSse sse, String owner, SseKeys.KeyState key, String principal) {
        return new Sealer(sse, MessageEnvelope.KMS, "K|" + sse.queueArn() + "|" + key.arn() + "|" + principal,
                sse.reuseSeconds(), () -> keys.newKmsKey(owner, key.arn(), sse.queueArn()));
    }

    /**
     * Before a receive changes anything: on an SSE-KMS queue, the queue's key must be usable by the caller for
     * {@code kms:Decrypt}, else the receive fails and no message is taken.
     */
    public void checkReceive(QueueSse sse, CallContext caller) {
        if (keys == null || sse.mode() != QueueSse.Mode.KMS) {
            return;
        }
        SseKeys.KeyState key = keys.usableKey(ownerOf(sse.queueArn()), sse.kmsKeyId());
        authorize(caller, "kms:Decrypt", key, sse.queueArn());
    }

    /** Opens the messages of one receive or peek; each distinct data key's KMS key is checked once. */
    public Opener opener(CallContext caller) {
        return new Opener(caller);
    }

    /** Whether any of {@code messages} is sealed (then it is opened off the applier). */
    public static boolean anySealed(List<ReceivedMessage> messages) {
        for (ReceivedMessage m : messages) {
            if (SealedBody.isSealed(m.body())) {
                return true;
            }
        }
        return false;
    }

    public final class Sealer {
        private final QueueSse sse;
        private final byte mode;
        private final String cacheKey;
        private final int reuseSeconds;
        private final java.util.function.Supplier<SseKeys.WrappedKey> fresh;

        private Sealer(QueueSse sse, byte mode, String cacheKey, int reuseSeconds,
                       java.util.function.Supplier<SseKeys.WrappedKey> fresh) {
            this.sse = sse;
            this.mode = mode;
            this.cacheKey = cacheKey;
            this.reuseSeconds = reuseSeconds;
            this.fresh = fresh;
        }

        /** The message as the engine gets it: body and attributes sealed, the plaintext's MD5 kept in memory. */
        public SendMessage seal(SendMessage m) {
            DataKeyCache.Use use = cache.forSealing(cacheKey, reuseSeconds, fresh);
            DataKeyCache.Entry key = use.entry();
            long counted = 0; // the attributes' part of the size; the body's is added as it is encoded
            if (m.attributes() != null) {
                for (Map.Entry<String, MessageAttribute> a : m.attributes().entrySet()) {
                    counted += a.getValue().sizeWith(a.getKey());
                }
            }
            String sealed = MessageEnvelope.seal(mode, sse.queueArn(), key.key.blob(), key.aes, use.nonce(), counted,
                    m.body(), m.attributes());
            recent.remember(m.messageId(), new SealedPlaintexts.Plain(sealed, m.body(), m.attributes(), mode,
                    key.key.blob(), sse.queueArn(), 2L * (sealed.length() + m.body().length()) + counted));
            // content-based deduplication hashes the plaintext, as it would unsealed (the engine sees ciphertext)
            String dedup = m.deduplicationId() == null && sse.contentDedup() ? sha256Hex(m.body()) : m.deduplicationId();
            return new SendMessage(sealed, null, m.awsTraceHeader(), m.delaySeconds(), m.groupId(), dedup,
                    m.senderId(), m.messageId(), m.bodyDigest());
        }
    }

    public final class Opener {
        private final CallContext caller;
        private final Set<java.nio.ByteBuffer> checked = new HashSet<>();
        private final Set<java.nio.ByteBuffer> checkedBlobs = new HashSet<>();

        private Opener(CallContext caller) {
            this.caller = caller;
        }

        /** The message with its plaintext body and attributes (as it is when it was not sealed). */
        public ReceivedMessage open(ReceivedMessage m) {
            if (!SealedBody.isSealed(m.body())) {
                return m;
            }
            SealedPlaintexts.Plain sent = recent.take(m.messageId(), m.body());
            if (sent != null) { // sealed here lately: no need to decrypt, but the same key checks as a decrypt
                if (sent.mode() == MessageEnvelope.KMS && checkedBlobs.add(java.nio.ByteBuffer.wrap(sent.wrappedKey()))) {
                    authorize(caller, "kms:Decrypt", keys.usableKeyOf(sent.wrappedKey()), sent.queueArn());
                }
                Map<String, MessageAttribute> attributes = sent.attributes() == null || sent.attributes().isEmpty()
                        ? null : sent.attributes();
                return opened(m, sent.body(), attributes);
            }
            MessageEnvelope.Sealed s = MessageEnvelope.parse(m.body());
            if (s == null || keys == null) {
                throw new ApiException("InternalError", "We encountered an internal error. Please try again.");
            }
            java.nio.ByteBuffer name = s.dataKeyName(); // compared by content
            SecretKey aes = switch (s.mode()) {
                case MessageEnvelope.SQS_DERIVED -> cache.forOpening(name, 300,
                        () -> keys.openSqsDerivedKey(ownerOf(s.queueArn()), s.wrappedKey(), s.queueArn()));
                case MessageEnvelope.SQS -> cache.forOpening(name, 300,
                        () -> keys.openSqsOwnedKey(ownerOf(s.queueArn()), s.wrappedKey(), s.queueArn()));
                default -> {
                    if (checked.add(name)) {
                        SseKeys.KeyState key = keys.usableKeyOf(s.wrappedKey());
                        authorize(caller, "kms:Decrypt", key, s.queueArn());
                    }
                    yield cache.forOpening(name, 300, () -> keys.openKmsKey(s.wrappedKey(), s.queueArn()));
                }
            };
            MessageEnvelope.Payload p = MessageEnvelope.open(s, aes);
            if (p == null) {
                throw new ApiException("InternalError", "We encountered an internal error. Please try again.");
            }
            return opened(m, p.body(), p.attributes());
        }

        private static ReceivedMessage opened(ReceivedMessage m, String body, Map<String, MessageAttribute> attributes) {
            return new ReceivedMessage(m.messageId(), m.receiptHandle(), body, attributes, m.senderId(),
                    m.sentTimestamp(), m.approximateReceiveCount(), m.approximateFirstReceiveTimestamp(),
                    m.sequenceNumber(), m.deduplicationId(), m.groupId(), m.awsTraceHeader(),
                    m.deadLetterQueueSourceArn(), m.bodyDigest());
        }
    }

    private static void authorize(CallContext caller, String action, SseKeys.KeyState key, String queueArn) {
        if (caller == null || caller.keyCaller() == null) {
            return;
        }
        String region = regionOf(queueArn);
        Map<String, List<String>> conditions = Map.of(
                "kms:ViaService", List.of("sqs." + region + ".amazonaws.com"),
                "kms:CallerAccount", List.of(caller.accountId()),
                "kms:EncryptionContext:aws:sqs:arn", List.of(queueArn),
                "kms:EncryptionContextKeys", List.of("aws:sqs:arn"));
        String denial = caller.keyCaller().denial(action, key.arn(), key.account(), key.policy(), conditions);
        if (denial != null) {
            throw new ApiException("KmsAccessDenied", denial);
        }
    }

    /** The account of {@code arn:aws:sqs:<region>:<account>:<name>}. */
    static String ownerOf(String queueArn) {
        return queueArn.split(":", 6)[4];
    }

    static String regionOf(String queueArn) {
        return queueArn.split(":", 6)[3];
    }

    static String sha256Hex(String body) {
        MessageDigest md = SHA256.get();
        md.reset();
        Utf8.update(md, body);
        return HexFormat.of().formatHex(md.digest());
    }
}
