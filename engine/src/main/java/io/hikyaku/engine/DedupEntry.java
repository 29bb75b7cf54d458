package io.hikyaku.engine;

import java.util.Objects;

/**
 * A FIFO deduplication entry: a send with this key within the window returns the original.
 *
 * <p>A busy FIFO queue holds five minutes of these (at 10,000 sends a second, three million), so
 * they are kept small: the message id, when it is a canonical UUID (ours always are), as two
 * longs, and the sequence number, when it has our 20-digit form, as its number. Other values are
 * kept as text. That is ~56 bytes per entry besides its key, where three objects and two strings
 * took ~176. The stored form is unchanged.
 */
final class DedupEntry {

    private static final int VERSION = 1;

    private final String key;
    private final long idHigh;
    private final long idLow;
    /** The message id when it is not a canonical UUID, else null. */
    private final String idText;
    /** The number behind our 20-digit sequence number, or -1: then seqText holds it (or it is null). */
    private final long seq;
    private final String seqText;
    private final long expiresAt;

    DedupEntry(String key, String messageId, String sequenceNumber, long expiresAt) {
        this.key = Objects.requireNonNull(key);
        this.expiresAt = expiresAt;
        long[] uuid = CompactIds.parseUuid(messageId);
        this.idHigh = uuid == null ? 0 : uuid[0];
        this.idLow = uuid == null ? 0 : uuid[1];
        this.idText = uuid == null ? messageId : null;
        this.seq = CompactIds.parseSequenceNumber(sequenceNumber);
        this.seqText = seq >= 0 ? null : sequenceNumber;
    }

    String key() {
        return key;
    }

    String messageId() {
        return idText != null ? idText : CompactIds.uuidText(idHigh, idLow);
    }

    String sequenceNumber() {
        return seq >= 0 ? SendRules.sequenceNumber(seq) : seqText;
    }

    long expiresAt() {
        return expiresAt;
    }

    byte[] encode() {
        return Enc.version(VERSION).str(messageId()).str(sequenceNumber()).i64(expiresAt).done();
    }

    static DedupEntry decode(String key, byte[] value) {
        Dec d = Dec.of(value, VERSION, "dedup entry");
        return new DedupEntry(key, d.str(), d.str(), d.i64());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DedupEntry e && key.equals(e.key) && expiresAt == e.expiresAt
                && Objects.equals(messageId(), e.messageId()) && Objects.equals(sequenceNumber(), e.sequenceNumber());
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, messageId(), sequenceNumber(), expiresAt);
    }

    @Override
    public String toString() {
        return "DedupEntry[" + key + ", " + messageId() + ", " + sequenceNumber() + ", " + expiresAt + "]";
    }
}
