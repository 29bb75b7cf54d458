package io.hikyaku.store.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Encoded batches waiting to go into RocksDB, in the order the engine wrote them, each with the
 * future its writer waits on. Adding is all a writer does under the engine's lock; whoever applies
 * takes the whole queue at once.
 */
final class WriteQueue {

    /** One batch's representation (batch number still to fill in) and its acknowledgement. */
    record Queued(byte[] rep, CompletableFuture<Void> acknowledged) {}

    private List<Queued> queued = new ArrayList<>();

    synchronized void add(byte[] rep, CompletableFuture<Void> acknowledged) {
        queued.add(new Queued(rep, acknowledged));
    }

    /** Everything queued so far, oldest first; the queue is empty afterwards. */
    synchronized List<Queued> takeAll() {
        if (queued.isEmpty()) {
            return List.of();
        }
        List<Queued> all = queued;
        queued = new ArrayList<>();
        return all;
    }
}
