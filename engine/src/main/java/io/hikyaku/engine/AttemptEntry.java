package io.hikyaku.engine;

import java.util.Comparator;

/** A FIFO ReceiveRequestAttemptId: which messages (by seq) that receive returned, and its nonce. */
record AttemptEntry(String attemptId, long expiresAt, long nonce, long[] seqs) {

    static final Comparator<AttemptEntry> BY_EXPIRY =
            Comparator.comparingLong(AttemptEntry::expiresAt).thenComparing(AttemptEntry::attemptId);

    private static final int VERSION = 1;

    byte[] encode() {
        Enc e = Enc.version(VERSION).i64(expiresAt).i64(nonce).i32(seqs.length);
        for (long s : seqs) {
            e.i64(s);
        }
        return e.done();
    }

    static AttemptEntry decode(String attemptId, byte[] value) {
        Dec d = Dec.of(value, VERSION, "attempt entry");
        long expires = d.i64();
        long nonce = d.i64();
        long[] seqs = new long[d.i32()];
        for (int i = 0; i < seqs.length; i++) {
            seqs[i] = d.i64();
        }
        return new AttemptEntry(attemptId, expires, nonce, seqs);
    }
}
