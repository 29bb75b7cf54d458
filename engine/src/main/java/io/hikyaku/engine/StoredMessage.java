package io.hikyaku.engine;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The immutable part of a message, kept in MESSAGES. The fields the index needs at start-up
 * (group, sent, available) come first so a rebuild can decode only the head of the value.
 *
 * @param sentAt       SentTimestamp (epoch ms), also the base of retention
 * @param availableAt  first time the message may be received (send time + delay)
 * @param sourceArn    DeadLetterQueueSourceArn when moved into a DLQ, else null
 * @param bodyDigest   the sender's digest of the body ({@link SendMessage#bodyDigest()}), in memory
 *                     only: not encoded, so null once read back from the store
 */
record StoredMessage(String groupId, long sentAt, long availableAt, String messageId, String body,
                     Map<String, MessageAttribute> attributes, String awsTraceHeader, String deduplicationId,
                     String senderId, String sequenceNumber, String sourceArn, String bodyDigest) {

    private static final int VERSION = 1;
    /**
     * The same layout, for a value that replaced an earlier one under its key (a body re-sealed by
     * {@link MessageSealing}): its delete must be a full tombstone, as a SingleDelete
     * ({@code deleteOnceWritten}) removes only the newest put and could bring the older value back.
     */
    private static final int VERSION_REWRITTEN = 2;

    byte[] encode() {
        return encode(VERSION);
    }

    /** The value of a message whose key held another value before ({@link #VERSION_REWRITTEN}). */
    byte[] encodeRewritten() {
        return encode(VERSION_REWRITTEN);
    }

    /** Whether a stored value (or its head) is {@link #encodeRewritten rewritten}: delete it with a full tombstone. */
    static boolean isRewritten(byte[] valueOrHead) {
        return valueOrHead.length > 0 && valueOrHead[0] == VERSION_REWRITTEN;
    }

    private byte[] encode(int version) {
        Enc e = Enc.version(version, encodedSize()).str(groupId).i64(sentAt).i64(availableAt)
                .str(messageId).str(body).str(awsTraceHeader).str(deduplicationId).str(senderId)
                .str(sequenceNumber).str(sourceArn);
        Map<String, MessageAttribute> attrs = attributes == null ? Map.of() : attributes;
        e.i32(attrs.size());
        attrs.forEach((name, a) -> e.str(name).str(a.dataType()).str(a.stringValue()).bytes(a.binaryValue()));
        return e.done();
    }

    /**
     * The exact length of {@link #encode()}'s value, so the encoder fills one array of the right size
     * (a guess of 256 + body meant a second array and a copy for every message sent).
     */
    int encodedSize() {
        int size = 1 + Enc.strSize(groupId) + 8 + 8 + Enc.strSize(messageId) + Enc.strSize(body)
                + Enc.strSize(awsTraceHeader) + Enc.strSize(deduplicationId) + Enc.strSize(senderId)
                + Enc.strSize(sequenceNumber) + Enc.strSize(sourceArn) + 4;
        if (attributes != null) {
            for (Map.Entry<String, MessageAttribute> e : attributes.entrySet()) {
                MessageAttribute a = e.getValue();
                size += Enc.strSize(e.getKey()) + Enc.strSize(a.dataType()) + Enc.strSize(a.stringValue())
                        + Enc.bytesSize(a.binaryValue());
            }
        }
        return size;
    }

    static StoredMessage decode(byte[] value) {
        Dec d = open(value);
        String group = d.str();
        long sent = d.i64();
        long available = d.i64();
        String id = d.str();
        String body = d.str();
        String trace = d.str();
        String dedup = d.str();
        String sender = d.str();
        String seqNo = d.str();
        String source = d.str();
        int n = d.i32();
        Map<String, MessageAttribute> attrs = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            attrs.put(d.str(), new MessageAttribute(d.str(), d.str(), d.bytes()));
        }
        return new StoredMessage(group, sent, available, id, body, attrs, trace, dedup, sender, seqNo, source, null);
    }

    /** Decodes only what the in-memory index needs. */
    static Head decodeHead(byte[] value) {
        Dec d = open(value);
        return new Head(d.str(), d.i64(), d.i64(), isRewritten(value));
    }

    private static Dec open(byte[] value) {
        return Dec.of(value, isRewritten(value) ? VERSION_REWRITTEN : VERSION, "message");
    }

    /** How many leading bytes of a value the loader reads: enough for a head with a group id of up to 75 bytes. */
    static final int HEAD_BYTES = 96;

    /** True when {@code prefix} (a value, or its first bytes) holds the whole head. */
    static boolean headFits(byte[] prefix) {
        if (prefix.length < 5) {
            return false;
        }
        int groupBytes = ByteBuffer.wrap(prefix, 1, 4).getInt();
        return (long) 5 + Math.max(groupBytes, 0) + 16 <= prefix.length;
    }

    /** @param rewritten the value is {@link #encodeRewritten rewritten} (deleted with a full tombstone) */
    record Head(String groupId, long sentAt, long availableAt, boolean rewritten) {}
}
