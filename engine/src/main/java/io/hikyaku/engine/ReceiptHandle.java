package io.hikyaku.engine;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * Receipt handles: base64url of [version 1][queue id 8][message seq 8][receive count 4][nonce 8]
 * [check 4]. The receive count makes each receive's handle distinct; the caller's random nonce
 * makes it unguessable; the check rejects most garbage that happens to decode.
 */
record ReceiptHandle(long queueId, long seq, int receiveCount, long nonce) {

    private static final int LENGTH = 33;

    String encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH).put((byte) 1).putLong(queueId).putLong(seq).putInt(receiveCount)
                .putLong(nonce);
        b.putInt(check(queueId, seq, receiveCount, nonce));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    /** The decoded handle, or null when {@code text} is not a handle this engine wrote. */
    static ReceiptHandle decode(String text) {
        if (text == null || text.length() != 44) {
            return null;
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (raw.length != LENGTH || raw[0] != 1) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(raw, 1, LENGTH - 1);
        long q = b.getLong();
        long s = b.getLong();
        int c = b.getInt();
        long n = b.getLong();
        if (b.getInt() != check(q, s, c, n)) {
            return null;
        }
        return new ReceiptHandle(q, s, c, n);
    }

    private static int check(long q, long s, int c, long n) {
        long h = 0x9E3779B97F4A7C15L;
        for (long v : new long[] {q, s, c, n}) {
            h ^= v;
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return (int) (h ^ (h >>> 32));
    }
}
