package io.hikyaku.engine;

import java.util.Objects;

/**
 * A FIFO deduplication entry: a send with this key within the window returns the original.
 *
 * <p>The message id, when it is a canonical UUID (ours always are), is held as two longs, and the
 * sequence number, when it has our 20-digit form, as its number; other values are kept as text.
 * {@link DedupWindow} stores these fields in columns, not as objects of this class: this is the
 * value that goes in and comes out. The stored form is unchanged.
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

    /** From the compact fields, as {@link DedupWindow} holds them. */
    DedupEntry(String key, long idHigh, long idLow, String idText, long seq, String seqText, long expiresAt) {
        this.key = Objects.requireNonNull(key);
        this.idHigh = idHigh;
        this.idLow = idLow;
        this.idText = idText;
        this.seq = seq;
        this.seqText = seqText;
        this.expiresAt = expiresAt;
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

    long idHigh() {
        return idHigh;
    }

    long idLow() {
        return idLow;
    }

    /** The message id when it is not a canonical UUID, else null. */
    String idText() {
        return idText;
    }

    /** Our sequence number's number, or -1. */
    long seq() {
        return seq;
    }

    /** The sequence number when it is not in our 20-digit form (null when there is none). */
    String seqText() {
        return seqText;
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
        // Field by field: the compact form of a given id and sequence number is unique.
        return o instanceof DedupEntry e && key.equals(e.key) && expiresAt == e.expiresAt
                && idHigh == e.idHigh && idLow == e.idLow && Objects.equals(idText, e.idText)
                && seq == e.seq && Objects.equals(seqText, e.seqText);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, idHigh, idLow, idText, seq, seqText, expiresAt);
    }

    @Override
    public String toString() {
        return "DedupEntry[" + key + ", " + messageId() + ", " + sequenceNumber() + ", " + expiresAt + "]";
    }
}
