package io.hikyaku.engine;

/**
 * The bound on what the in-memory index holds over all queues (ENGINE.md "Memory"): a count of
 * indexed messages, about 100-120 bytes of heap each. A message that does not fit is spilled: it
 * is written to the store only and paged in later ({@link Tails}). FIFO deduplication entries
 * (about 128 bytes each, five minutes each) are bounded by the same number: a FIFO send that
 * would pass it is refused with RequestThrottled. Counts only; the engine stays deterministic.
 */
final class IndexBudget {

    /**
     * Per queue, this many messages may always be indexed, budget or not, so every queue serves
     * its head even while other queues hold the whole budget (64 entries: a few KB a queue, the
     * order of what a queue's record and empty indexes take anyway).
     */
    static final int QUEUE_RESERVE = 64;

    /** Indexed messages allowed over all queues (beyond it they spill). */
    final long limit;
    /** Messages in all queues' indexes. */
    long indexed;
    /** Messages in all queues' spilled tails. */
    long spilled;
    /** FIFO deduplication entries in memory. */
    long dedup;

    IndexBudget(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the index budget must be at least 1 message: " + limit);
        }
        this.limit = limit;
    }

    /** True when a new message of {@code q} goes into the index (else it spills, or a send is refused). */
    boolean admits(QueueState q) {
        return q.tail == 0 && (indexed < limit || q.messages.size() < QUEUE_RESERVE);
    }

    /** Free room in the index (0 when full or over by reserves). */
    long free() {
        return Math.max(0, limit - indexed);
    }
}
