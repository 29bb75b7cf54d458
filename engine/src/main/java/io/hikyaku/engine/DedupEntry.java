package io.hikyaku.engine;


/** A FIFO deduplication entry: a send with this key within the window returns the original. */
record DedupEntry(String key, String messageId, String sequenceNumber, long expiresAt) {

    private static final int VERSION = 1;

    byte[] encode() {
        return Enc.version(VERSION).str(messageId).str(sequenceNumber).i64(expiresAt).done();
    }

    static DedupEntry decode(String key, byte[] value) {
        Dec d = Dec.of(value, VERSION, "dedup entry");
        return new DedupEntry(key, d.str(), d.str(), d.i64());
    }
}
