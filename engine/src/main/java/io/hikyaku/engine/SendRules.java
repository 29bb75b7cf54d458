package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/** What a send must satisfy on a given queue, and the FIFO ids derived at send time. */
final class SendRules {
    private SendRules() {}

    static void check(QueueState q, SendMessage m, boolean inBatch) {
        if (m.body() == null || m.body().isEmpty()) {
            throw Texts.missing("MessageBody");
        }
        if (q.fifo) {
            if (m.groupId() == null) {
                throw inBatch ? Texts.invalidParameter("The request must contain the parameter MessageGroupId.")
                        : Texts.missing("MessageGroupId");
            }
            if (m.delaySeconds() != null && m.delaySeconds() != 0) {
                throw Texts.invalidValue(m.delaySeconds(), "DelaySeconds", Texts.WRONG_QUEUE_TYPE);
            }
            if (m.deduplicationId() == null && !q.settings.contentBasedDeduplication) {
                throw Texts.invalidParameter(Texts.NEED_DEDUP);
            }
        } else {
            if (m.deduplicationId() != null) {
                throw Texts.invalidValue(m.deduplicationId(), "MessageDeduplicationId", Texts.WRONG_QUEUE_TYPE);
            }
            if (m.delaySeconds() != null && (m.delaySeconds() < 0 || m.delaySeconds() > 900)) {
                throw Texts.invalidValue(m.delaySeconds(), "DelaySeconds", "DelaySeconds must be >= 0 and <= 900");
            }
        }
        long sealed = SealedBody.isSealed(m.body()) ? SealedBody.countedSize(m.body()) : -1;
        long size = sealed >= 0 ? sealed : Utf8.length(m.body()); // a sealed body holds its attributes
        if (sealed < 0 && m.attributes() != null) {
            for (Map.Entry<String, MessageAttribute> a : m.attributes().entrySet()) {
                size += a.getValue().sizeWith(a.getKey());
            }
        }
        int max = q.settings.maximumMessageSize;
        if (size > max) {
            throw Texts.invalidParameter(String.format(inBatch ? Texts.TOO_BIG_BATCH : Texts.TOO_BIG_SINGLE, max));
        }
    }

    /**
     * The SequenceNumber a client sees for one stored as {@link #sequenceNumber(long)} writes it: a
     * 20-digit number like SQS's (large, not consecutive), the queue's creation second in the high
     * digits, then the message seq times 1,000 plus a spread of the seq. It is computed on the way
     * out, so the stored form (and the dedup keys and purge bounds built on it) is unchanged. The seq
     * strictly increases per queue and is never reused across restarts (QueueState reserves seqs in
     * META), so these numbers strictly increase; numbers of the stored form, which earlier versions
     * returned, are all smaller. Only queue state goes in: apply stays deterministic. Text in any
     * other form (none is written today) is returned as it is.
     */
    static String wireSequenceNumber(QueueState q, String stored) {
        long seq = CompactIds.parseSequenceNumber(stored);
        if (seq < 0 || seq > MAX_WIRE_SEQ) {
            return stored;
        }
        return sequenceNumber(Math.floorDiv(q.createdAt, 1000L) * 1_000_000_000L + seq * 1000L + (seq * 617) % 1000);
    }

    /** Seqs whose wire number still fits 19 digits after the creation second (queues created before 2250). */
    private static final long MAX_WIRE_SEQ = 7_000_000_000_000_000L / 1000;

    /** SequenceNumber text for n: "1" and n zero-padded to 19 digits (the stored form DedupEntry compacts). */
    static String sequenceNumber(long seq) {
        if (seq < 0) {
            return "1" + String.format("%019d", seq); // never happens: seqs start at 1
        }
        String digits = Long.toString(seq);
        StringBuilder out = new StringBuilder(20).append('1');
        for (int i = digits.length(); i < 19; i++) {
            out.append('0');
        }
        return out.append(digits).toString();
    }

    /** One SHA-256 per thread: getInstance looks the provider up on every call. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });
    private static final HexFormat HEX = HexFormat.of();

    /** Hex SHA-256 of the UTF-8 body (content-based deduplication ids). */
    static String sha256Hex(String body) {
        MessageDigest md = SHA256.get();
        md.reset();
        Utf8.update(md, body);
        return HEX.formatHex(md.digest());
    }
}
