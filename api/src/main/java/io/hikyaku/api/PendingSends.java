package io.hikyaku.api;

import io.hikyaku.engine.ReceivedMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sends of one shard whose writes have not yet settled well, by message id, and its latest other
 * write that may have made a message receivable: what a standard queue's receive waits for. Such a
 * receive does not wait for its own write (its in-flight record: visibility and receive count, which
 * SQS does not promise to keep across a failure; see docs/operations.md, "What waits for the fsync"),
 * only for what made its messages receivable, so no client ever holds a message whose send the disk
 * might not have, nor one that only a write which then failed made visible.
 *
 * <p>An entry is added on the applier when the send is applied and removed once its write is durable
 * (on whichever thread settles it). An entry whose write failed stays: a receive that still sees the
 * message (before the fence stops the engine) then waits on the failure and answers with it. Every
 * entry goes at {@link #clear} (a reload from the store after a failure: the failed sends are gone, the
 * held ones durable).
 */
final class PendingSends {

    /** A send's write and its place in the shard's order (writes settle in that order). */
    private record Pending(long order, CompletableFuture<Void> written) {}

    private static final CompletableFuture<Void> DURABLE = CompletableFuture.completedFuture(null);

    private final ConcurrentHashMap<String, Pending> byMessageId = new ConcurrentHashMap<>();
    /**
     * The latest write (applier only) that may have made a message receivable other than its send: a
     * visibility change, a purge or queue change, a timer round (move tasks), a receive that may have
     * moved messages to a dead-letter queue, a FIFO delete. A receive's answer waits for it too.
     */
    private Pending other;
    /** Applier only. */
    private long order;

    /** Applier: the sends of {@code messageIds} are durable once {@code written} is. */
    void add(List<String> messageIds, CompletableFuture<Void> written) {
        if (written.isDone() && !written.isCompletedExceptionally()) {
            return; // a store in memory: settled at once
        }
        Pending p = new Pending(++order, written);
        for (String id : messageIds) {
            byMessageId.put(id, p);
        }
        written.whenComplete((ok, failure) -> {
            if (failure == null) {
                for (String id : messageIds) {
                    byMessageId.remove(id, p);
                }
            }
        });
    }

    void add(String messageId, CompletableFuture<Void> written) {
        add(List.of(messageId), written);
    }

    /** Applier: a write that may have made messages receivable other than by sending them (see {@link #other}). */
    void other(CompletableFuture<Void> written) {
        if (!written.isDone() || written.isCompletedExceptionally()) {
            other = new Pending(++order, written);
        }
    }

    /**
     * Applier: completes once what made {@code messages} receivable is durable: the send of each, and the
     * latest {@linkplain #other other write} before now (at once when all are), failing as the first
     * failed one did. Writes settle in order, so the latest is enough.
     */
    CompletableFuture<Void> receivable(List<ReceivedMessage> messages) {
        Pending latest = other != null && other.written().isDone() && !other.written().isCompletedExceptionally() ? null : other;
        if (latest == null) {
            other = null;
        }
        for (ReceivedMessage m : messages) {
            Pending p = byMessageId.get(m.messageId());
            if (p != null && (latest == null || p.order() > latest.order())) {
                latest = p;
            }
        }
        return latest == null ? DURABLE : latest.written();
    }

    /** Applier, at a reload: nothing written before it is pending any more. */
    void clear() {
        byMessageId.clear();
        other = null;
    }

    /** Sends not yet known durable (tests). */
    int size() {
        return byMessageId.size();
    }
}
