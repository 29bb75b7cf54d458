package io.hikyaku.engine;

import java.util.Comparator;

/**
 * The in-memory index entry of one message (the body stays in the store). Persisted receive state
 * (MESSAGE_STATE) is {@code receiveCount, firstReceiveAt, lastReceiveAt, visibleAt, nonce, touched};
 * whether it is in flight follows from {@code visibleAt} versus now, so expiries need no writes.
 */
final class Message {

    enum State { DELAYED, VISIBLE, INFLIGHT }

    static final Comparator<Message> BY_VISIBLE_AT =
            Comparator.<Message>comparingLong(m -> m.visibleAt).thenComparingLong(m -> m.seq);
    static final Comparator<Message> BY_SENT_AT =
            Comparator.<Message>comparingLong(m -> m.sentAt).thenComparingLong(m -> m.seq);

    private static final int STATE_VERSION = 1;

    final long seq;
    final String groupId;
    final long sentAt;
    State state;
    /**
     * When DELAYED or INFLIGHT: the time it becomes visible. When VISIBLE: the time it became visible
     * (FIFO serves the group whose oldest message has been visible longest); never changed while VISIBLE.
     */
    long visibleAt;
    int receiveCount;
    long firstReceiveAt;
    long lastReceiveAt;
    long nonce;
    /** Visibility changed since the last receive (invalidates a ReceiveRequestAttemptId retry). */
    boolean touched;
    /**
     * Its stored value replaced an earlier one (re-sealed, {@link MessageSealing}): its key is deleted
     * with a full tombstone, not a SingleDelete. Known from the stored value's version at load.
     */
    boolean rewritten;
    /** The decoded stored message while {@link BodyCache} holds it (until the first delivery), else null. */
    StoredMessage cached;
    /** Where this message's entry lives in each {@link AppendOrderedSet} index (ring, tree or none). */
    byte retentionHome;
    byte pendingHome;
    byte visibleHome;

    Message(long seq, String groupId, long sentAt) {
        this.seq = seq;
        this.groupId = groupId;
        this.sentAt = sentAt;
    }

    byte[] encodeState() {
        return Enc.version(STATE_VERSION).i32(receiveCount).i64(firstReceiveAt).i64(lastReceiveAt)
                .i64(visibleAt).i64(nonce).bool(touched).done();
    }

    void decodeState(byte[] value) {
        Dec d = Dec.of(value, STATE_VERSION, "message state");
        receiveCount = d.i32();
        firstReceiveAt = d.i64();
        lastReceiveAt = d.i64();
        visibleAt = d.i64();
        nonce = d.i64();
        touched = d.bool();
    }
}
