package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.QueueRef;
import java.util.concurrent.CompletableFuture;

/**
 * A parked long-poll ReceiveMessage: what to retry and when to give up. Kept small (a few
 * references and a long) since thousands may wait at once; no thread is attached to it.
 */
final class Waiter {

    final QueueRef queue;
    final ReceiveCall call;
    final long deadline;
    final CompletableFuture<ObjectNode> future;
    /** Set once answered (by messages, expiry or queue deletion); applier only. */
    boolean done;

    Waiter(QueueRef queue, ReceiveCall call, long deadline, CompletableFuture<ObjectNode> future) {
        this.queue = queue;
        this.call = call;
        this.deadline = deadline;
        this.future = future;
    }
}
