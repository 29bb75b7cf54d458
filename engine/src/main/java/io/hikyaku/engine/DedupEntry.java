package io.hikyaku.engine;

import io.hikyaku.engine.store.StoreException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A FIFO deduplication entry: a send with this key within the window returns the original.
 *
 * <p>The message id, when it is a canonical UUID (ours always are), is held as two longs, and the
 * sequence number, when it has our 20-digit form, as its number; other values are kept as text.
 * {@link DedupWindow} stores these fields in columns, not as objects of this class: this is the
 * value that goes in and comes out.
 *
 * <p>Two stored forms. An entry whose sequence number is ours is stored under its queue and that
 * number ({@link Keys#dedupBySeq}), with a compact value ({@link #encodeCompact}): keys then grow
 * in send order, so the store appends instead of inserting hashes at random places in a sorted
 * memtable, and an entry takes about half the bytes. Entries written before that form existed sit
 * under their text key ({@link Keys#dedup}, value {@link #encode}); they are read back as they are
 * ({@link #textKeyed()}) and removed under that key.
 */
final class DedupEntry {

    private static final int VERSION = 1;
    private static final int COMPACT_VERSION = 2;
    /** Compact value flag: the key ends in 64 lower-case hex digits (a content hash), held as 32 bytes. */
    private static final int HEX_TAIL = 1;
    /** Compact value flag: the message id is a canonical UUID, held as two longs. */
    private static final int UUID_ID = 2;
    private static final int HEX_CHARS = 64;

    private final String key;
    private final long idHigh;
    private final long idLow;
    /** The message id when it is not a canonical UUID, else null. */
    private final String idText;
    /** The number behind our 20-digit sequence number, or -1: then seqText holds it (or it is null). */
    private final long seq;
    private final String seqText;
    private final long expiresAt;
    /** Stored under its text key (the older form), so removed under it too. */
    private final boolean textKeyed;

    DedupEntry(String key, String messageId, String sequenceNumber, long expiresAt) {
        this(key, messageId, sequenceNumber, expiresAt, false);
    }

    private DedupEntry(String key, String messageId, String sequenceNumber, long expiresAt, boolean textKeyed) {
        this.key = Objects.requireNonNull(key);
        this.expiresAt = expiresAt;
        this.textKeyed = textKeyed;
        long[] uuid = CompactIds.parseUuid(messageId);
        this.idHigh = uuid == null ? 0 : uuid[0];
        this.idLow = uuid == null ? 0 : uuid[1];
        this.idText = uuid == null ? messageId : null;
        this.seq = CompactIds.parseSequenceNumber(sequenceNumber);
        this.seqText = seq >= 0 ? null : sequenceNumber;
    }

    /** From the compact fields, as {@link DedupWindow} holds them. */
    DedupEntry(String key, long idHigh, long idLow, String idText, long seq, String seqText, long expiresAt,
               boolean textKeyed) {
        this.key = Objects.requireNonNull(key);
        this.textKeyed = textKeyed;
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

    /** Whether this entry sits under its text key in the store (the older form); see the class comment. */
    boolean textKeyed() {
        return textKeyed;
    }

    /** Whether this entry is stored under its sequence number, with {@link #encodeCompact}'s value. */
    boolean keyedBySeq() {
        return !textKeyed && seq >= 0;
    }

    /** The value stored under {@link Keys#dedupEntry}: the compact form, or the older one for a text key. */
    byte[] storedValue() {
        return keyedBySeq() ? encodeCompact() : encode();
    }

    /** The older stored form, under {@link Keys#dedup}: message id, sequence number, expiry. */
    byte[] encode() {
        return Enc.version(VERSION).str(messageId()).str(sequenceNumber()).i64(expiresAt).done();
    }

    /** An entry read from under its text key. */
    static DedupEntry decode(String key, byte[] value) {
        Dec d = Dec.of(value, VERSION, "dedup entry");
        return new DedupEntry(key, d.str(), d.str(), d.i64(), true);
    }

    /**
     * The value stored under {@link Keys#dedupBySeq} (the sequence number is in the key): flags, the
     * key (a trailing content hash as 32 bytes), the message id (as two longs when a UUID), expiry.
     */
    byte[] encodeCompact() {
        if (!keyedBySeq()) {
            throw new IllegalStateException("not stored by sequence number: " + this);
        }
        boolean hexTail = endsInHex(key);
        int flags = (hexTail ? HEX_TAIL : 0) | (idText == null ? UUID_ID : 0);
        Enc e = Enc.version(COMPACT_VERSION, 64).u8(flags);
        if (hexTail) {
            e.str(key.substring(0, key.length() - HEX_CHARS)).bytes(HexFormat.of().parseHex(key, key.length() - HEX_CHARS, key.length()));
        } else {
            e.str(key);
        }
        if (idText == null) {
            e.i64(idHigh).i64(idLow);
        } else {
            e.str(idText);
        }
        return e.i64(expiresAt).done();
    }

    /** An entry read from under {@link Keys#dedupBySeq}, whose sequence number's number is {@code seq}. */
    static DedupEntry decodeCompact(long seq, byte[] value) {
        Dec d = Dec.of(value, COMPACT_VERSION, "dedup entry");
        int flags = d.u8();
        String key = d.str();
        if ((flags & HEX_TAIL) != 0) {
            byte[] hash = d.bytes();
            if (hash == null || hash.length != HEX_CHARS / 2) {
                throw new StoreException("dedup entry: bad content hash");
            }
            key = key + HexFormat.of().formatHex(hash);
        }
        long high = 0;
        long low = 0;
        String idText = null;
        if ((flags & UUID_ID) != 0) {
            high = d.i64();
            low = d.i64();
        } else {
            idText = d.str();
        }
        return new DedupEntry(key, high, low, idText, seq, null, d.i64(), false);
    }

    /** Whether {@code key} ends in 64 lower-case hex digits (so they round-trip through 32 bytes exactly). */
    private static boolean endsInHex(String key) {
        if (key.length() < HEX_CHARS) {
            return false;
        }
        for (int i = key.length() - HEX_CHARS; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        // Field by field: the compact form of a given id and sequence number is unique.
        return o instanceof DedupEntry e && key.equals(e.key) && expiresAt == e.expiresAt && textKeyed == e.textKeyed
                && idHigh == e.idHigh && idLow == e.idLow && Objects.equals(idText, e.idText)
                && seq == e.seq && Objects.equals(seqText, e.seqText);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, idHigh, idLow, idText, seq, seqText, expiresAt, textKeyed);
    }

    @Override
    public String toString() {
        return "DedupEntry[" + key + ", " + messageId() + ", " + sequenceNumber() + ", " + expiresAt + "]";
    }
}
