package io.hikyaku.engine;

/**
 * The bound on what the engine keeps in memory per message, over all queues (ENGINE.md
 * "Memory"): index entries (about 100-160 bytes of heap each) plus FIFO deduplication entries
 * (about 128 bytes each, kept five minutes). A message that does not fit is spilled: written to
 * the store only and paged in later ({@link Tails}). Deduplication entries may take at most half
 * of the budget: a FIFO send past that is refused with RequestThrottled. Counts only; the engine
 * stays deterministic.
 */
final class IndexBudget {

    /**
     * Per queue, this many messages may always be indexed, budget or not, so every queue serves
     * its head even while other queues hold the whole budget (64 entries: a few KB a queue, the
     * order of what a queue's record and empty indexes take anyway).
     */
    static final int QUEUE_RESERVE = 64;

    /**
     * Per queue, at most this many visible messages are indexed by default (the window near the
     * head); the rest of a backlog stays in the store (ENGINE.md "Memory").
     */
    static final int DEFAULT_WINDOW = 65_536;

    /** Index entries plus deduplication entries allowed over all queues (beyond it messages spill). */
    final long limit;
    /** Per queue, indexed visible messages at most (Long.MAX_VALUE: no window). */
    final long window;
    /** Messages in all queues' indexes. */
    long indexed;
    /** Messages in all queues' spilled tails. */
    long spilled;
    /** FIFO deduplication entries in memory. */
    long dedup;

    IndexBudget(long limit) {
        this(limit, Long.MAX_VALUE);
    }

    IndexBudget(long limit, long window) {
        if (limit < 1) {
            throw new IllegalArgumentException("the index budget must be at least 1 message: " + limit);
        }
        if (window < 1) {
            throw new IllegalArgumentException("the index window must be at least 1 message: " + window);
        }
        this.limit = limit;
        this.window = window;
    }

    /** True when a new message of {@code q} goes into the index (else it spills, or a send is refused). */
    boolean admits(QueueState q) {
        return !q.hasTail() && room(q) > 0;
    }

    /**
     * How many more messages {@code q} may index now: what its window of visible messages leaves
     * (in-flight messages do not count, they are bounded by the in-flight limit; nor do delayed
     * ones, so visible messages behind a run of delayed ones are still reached: the budget bounds
     * those), within the budget's free room or the queue's reserve.
     */
    long room(QueueState q) {
        long size = q.messages.size();
        long inWindow = window - q.visible;
        long global = Math.max(free(), QUEUE_RESERVE - size);
        return Math.max(0, Math.min(inWindow, global));
    }

    /** True when FIFO deduplication entries hold their half of the budget: FIFO sends are refused. */
    boolean dedupFull() {
        return dedup >= limit / 2;
    }

    /** Free room in the index (0 when full or over by reserves). */
    long free() {
        return Math.max(0, limit - indexed - dedup);
    }
}
