package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreException;

/**
 * The receive's read of a body that is not in the {@link BodyCache} (a message paged in from a
 * spilled tail, loaded at start-up, or sent while the cache was full): one seek of MESSAGES from
 * the message, whose next {@link #SPAN} values are decoded and cached on the indexed visible
 * messages they belong to (within the cache's budget). Receives deliver oldest first, so a drained
 * backlog's following receives then read nothing: one seek per {@code SPAN} messages instead of a
 * point read each. What is cached follows from the index and the store, both the outcome of the
 * command sequence alone (deterministic); results are the same as with point reads.
 */
final class ReadAhead {

    /** Messages one read-ahead looks at after the one asked for, at most. */
    static final int SPAN = 128;

    private final Store store;

    ReadAhead(Store store) {
        this.store = store;
    }

    /** The stored part of {@code m} (not cached), read with the messages after it. */
    StoredMessage load(QueueState q, Message m) {
        StoredMessage[] found = {null};
        int[] looked = {0};
        long end = q.hasTail() ? q.tailFrom : Long.MAX_VALUE; // past the index: nothing to cache on
        store.scanFrom(Keyspace.MESSAGES, Keys.queue(q.id), Keys.message(q.id, m.seq), 0, (k, v) -> {
            long seq = Keys.seqOf(k);
            if (found[0] == null) {
                if (seq != m.seq) {
                    return false; // not stored: reported below
                }
                found[0] = StoredMessage.decode(v);
                return true;
            }
            if (seq >= end || looked[0]++ >= SPAN) {
                return false;
            }
            Message next = q.messages.get(seq);
            if (next == null || next.cached != null || next.state != Message.State.VISIBLE) {
                return true;
            }
            return q.cacheBody(next, StoredMessage.decode(v)); // the budget is used up: stop
        });
        if (found[0] == null) {
            throw new StoreException("message " + q.id + "/" + m.seq + " missing from the store");
        }
        return found[0];
    }
}
