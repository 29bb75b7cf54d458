package io.hikyaku.engine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Store key layout (all integers big-endian so keys sort numerically):
 * <pre>
 * META          "queue-ids"                        -> last queue id (i64)
 * META          's' queueId(8)                     -> reserved message seq upper bound (i64)
 * META          'p' queueId(8)                     -> purge bound: messages below this seq were purged (i64)
 * META          "applied-at"                       -> the time of the last tick that wrote it (i64; a load starts there at the earliest)
 * META          "queue-ids/" i, "applied-at/" i    -> the same two for engine shard i of several (EngineShard)
 * QUEUES        queueId(8)                         -> queue record
 * MESSAGES      queueId(8) seq(8)                  -> immutable message (written once, deleted once)
 * MESSAGE_STATE queueId(8) seq(8)                  -> receive state (only after first receive)
 * DEDUP         queueId(8) 'D' seq(8)              -> dedup entry of the message with that sequence number
 *                                                    (written once, deleted once)
 * DEDUP         queueId(8) 'd' utf8(scope key)     -> dedup entry in the older form (read, and deleted)
 * DEDUP         queueId(8) 'a' utf8(attempt id)    -> receive attempt entry
 * HOUSEKEEPING  'n' utf8(account) 0 utf8(name)     -> deleted-at of a recently deleted queue name
 * HOUSEKEEPING  't' utf8(task id)                  -> message move task
 * HOUSEKEEPING  'o' utf8(account) 0 utf8(source)   -> send-once record of a source sending to that account's queues
 *                                                    (overwritten per send; never read at load)
 * </pre>
 */
final class Keys {
    private Keys() {}

    static final byte[] QUEUE_ID_COUNTER = "queue-ids".getBytes(StandardCharsets.UTF_8);
    static final byte[] APPLIED_AT = "applied-at".getBytes(StandardCharsets.UTF_8);

    static byte[] seqReservation(long queueId) {
        return ByteBuffer.allocate(9).put((byte) 's').putLong(queueId).array();
    }

    static byte[] purgeBound(long queueId) {
        return ByteBuffer.allocate(9).put((byte) 'p').putLong(queueId).array();
    }

    static byte[] queue(long queueId) {
        return ByteBuffer.allocate(8).putLong(queueId).array();
    }

    static byte[] message(long queueId, long seq) {
        return ByteBuffer.allocate(16).putLong(queueId).putLong(seq).array();
    }

    static long queueIdOf(byte[] key) {
        return ByteBuffer.wrap(key).getLong(0);
    }

    static long seqOf(byte[] key) {
        return ByteBuffer.wrap(key).getLong(8);
    }

    static byte[] dedup(long queueId, String scopeKey) {
        return tagged(queueId, 'd', scopeKey);
    }

    static byte[] dedupBySeq(long queueId, long seq) {
        return ByteBuffer.allocate(17).putLong(queueId).put((byte) 'D').putLong(seq).array();
    }

    /** Where {@code e} is stored: under its sequence number, or (the older form) under its text. */
    static byte[] dedupEntry(long queueId, DedupEntry e) {
        return e.keyedBySeq() ? dedupBySeq(queueId, e.seq()) : dedup(queueId, e.key());
    }

    /** The sequence number of a {@link #dedupBySeq} key. */
    static long dedupSeqOf(byte[] key) {
        return ByteBuffer.wrap(key).getLong(9);
    }

    static byte[] attempt(long queueId, String attemptId) {
        return tagged(queueId, 'a', attemptId);
    }

    /** The tag byte of a DEDUP key ('D', 'd' or 'a'); the text of a 'd' or 'a' key. */
    static char dedupTag(byte[] key) {
        return (char) key[8];
    }

    static String dedupText(byte[] key) {
        return new String(key, 9, key.length - 9, StandardCharsets.UTF_8);
    }

    private static byte[] tagged(long queueId, char tag, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(9 + t.length).putLong(queueId).put((byte) tag).put(t).array();
    }

    static byte[] deletedName(String account, String name) {
        byte[] a = account.getBytes(StandardCharsets.UTF_8);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + a.length + n.length).put((byte) 'n').put(a).put((byte) 0).put(n).array();
    }

    /** A {@code SendOnce} source's record: under the target queue's account, so its shard owns it. */
    static byte[] sentOnce(String account, String source) {
        byte[] a = account.getBytes(StandardCharsets.UTF_8);
        byte[] s = source.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + a.length + s.length).put((byte) 'o').put(a).put((byte) 0).put(s).array();
    }

    static byte[] task(String taskId) {
        byte[] t = taskId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + t.length).put((byte) 't').put(t).array();
    }

    static byte[] prefix(char c) {
        return new byte[] {(byte) c};
    }
}
