package io.hikyaku.api;

import io.hikyaku.engine.QueueRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The parked receives: per queue in arrival order (served first come, first served), and by
 * deadline for expiry. Answered waiters are dropped lazily from the deadline heap. Not
 * thread-safe: used on the shard's applier thread only.
 */
final class LongPolls {

    private final Map<QueueRef, ArrayDeque<Waiter>> byQueue = new HashMap<>();
    private final PriorityQueue<Waiter> byDeadline = new PriorityQueue<>(Comparator.comparingLong(w -> w.deadline));

    void park(Waiter waiter) {
        byQueue.computeIfAbsent(waiter.queue, q -> new ArrayDeque<>()).addLast(waiter);
        byDeadline.add(waiter);
    }

    /** The waiters of {@code queue}, oldest first (possibly empty); callers poll served ones. */
    ArrayDeque<Waiter> of(QueueRef queue) {
        ArrayDeque<Waiter> waiters = byQueue.get(queue);
        return waiters == null ? new ArrayDeque<>() : waiters;
    }

    boolean hasWaiters(QueueRef queue) {
        ArrayDeque<Waiter> waiters = byQueue.get(queue);
        return waiters != null && !waiters.isEmpty();
    }

    /** Forgets {@code queue}'s deque once empty, so idle queues cost nothing. */
    void compact(QueueRef queue) {
        ArrayDeque<Waiter> waiters = byQueue.get(queue);
        if (waiters != null) {
            waiters.removeIf(w -> w.done);
            if (waiters.isEmpty()) {
                byQueue.remove(queue);
            }
        }
    }

    /** Removes and returns every waiter of {@code queue} not yet answered (the queue was deleted). */
    List<Waiter> removeQueue(QueueRef queue) {
        ArrayDeque<Waiter> waiters = byQueue.remove(queue);
        List<Waiter> out = new ArrayList<>();
        if (waiters != null) {
            for (Waiter w : waiters) {
                if (!w.done) {
                    w.done = true;
                    out.add(w);
                }
            }
        }
        return out;
    }

    /**
     * Removes and returns the waiters whose deadline is at or before {@code now}, at most
     * {@code limit} of them (earliest deadline first); the rest stay due for the next call.
     */
    List<Waiter> expire(long now, int limit) {
        List<Waiter> out = new ArrayList<>();
        while (!byDeadline.isEmpty() && out.size() < limit
                && (byDeadline.peek().done || byDeadline.peek().deadline <= now)) {
            Waiter w = byDeadline.poll();
            if (!w.done) {
                w.done = true;
                out.add(w);
                compact(w.queue);
            }
        }
        return out;
    }

    /** Removes and returns all unanswered waiters (shutdown). */
    List<Waiter> removeAll() {
        List<Waiter> out = new ArrayList<>();
        for (Waiter w : byDeadline) {
            if (!w.done) {
                w.done = true;
                out.add(w);
            }
        }
        byDeadline.clear();
        byQueue.clear();
        return out;
    }

    /** The earliest deadline of an unanswered waiter, or Long.MAX_VALUE. */
    long nextDeadline() {
        while (!byDeadline.isEmpty() && byDeadline.peek().done) {
            byDeadline.poll();
        }
        return byDeadline.isEmpty() ? Long.MAX_VALUE : byDeadline.peek().deadline;
    }

    int size() {
        nextDeadline();
        int n = 0;
        for (ArrayDeque<Waiter> q : byQueue.values()) {
            for (Waiter w : q) {
                if (!w.done) {
                    n++;
                }
            }
        }
        return n;
    }
}
