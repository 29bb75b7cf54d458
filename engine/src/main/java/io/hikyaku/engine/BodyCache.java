package io.hikyaku.engine;

/**
 * Keeps the decoded {@link StoredMessage} of recently sent messages on their index entry until
 * their first delivery, so the usual receive needs no store read and no decode. Bounded by an
 * approximate heap charge over all queues; a message sent while the budget is used up is simply
 * read from the store when received (as after a restart, when nothing is cached). Only where a
 * body is read from changes: results are the same with or without the cache, and its contents
 * follow from the command sequence alone (deterministic). Not thread-safe, like the engine.
 */
final class BodyCache {

    /** Default budget: some tens of thousands of small messages. */
    static final long DEFAULT_LIMIT_BYTES = 16L * 1024 * 1024;
    private static final int ENTRY_OVERHEAD = 256;

    private final long limit;
    private long used;

    BodyCache(long limitBytes) {
        this.limit = limitBytes;
    }

    /** Caches {@code sm} on {@code m} if the budget allows; returns the charge taken (0: not cached). */
    long offer(Message m, StoredMessage sm) {
        long charge = charge(sm);
        if (used + charge <= limit) {
            m.cached = sm;
            used += charge;
            return charge;
        }
        return 0;
    }

    /** Forgets what {@code m} holds (delivered, deleted, moved, expired); returns the charge given back. */
    long release(Message m) {
        StoredMessage sm = m.cached;
        if (sm != null) {
            m.cached = null;
            long charge = charge(sm);
            used -= charge;
            return charge;
        }
        return 0;
    }

    /** Gives back {@code bytes} of charge whose messages were dropped without a release (a purged queue's). */
    void forget(long bytes) {
        used -= bytes;
    }

    long usedBytes() {
        return used;
    }

    /** Approximate heap size: strings are counted at two bytes a character (the worst case). */
    private static long charge(StoredMessage sm) {
        long n = ENTRY_OVERHEAD + 2L * sm.body().length();
        if (sm.attributes() != null) {
            for (var e : sm.attributes().entrySet()) {
                MessageAttribute a = e.getValue();
                n += 64 + 2L * e.getKey().length() + 2L * a.dataType().length()
                        + (a.stringValue() != null ? 2L * a.stringValue().length() : 0)
                        + (a.binaryValue() != null ? a.binaryValue().length : 0);
            }
        }
        return n;
    }
}
