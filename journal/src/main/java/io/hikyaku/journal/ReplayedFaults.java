package io.hikyaku.journal;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.util.concurrent.CompletableFuture;

/**
 * The replay's store: a pass-through that repeats the store faults a journal recorded (FAULT
 * frames, written by the simulator), so the replayed store holds what the recorded one held. A
 * fault is armed for the next command only; the write it names fails, applied first for a failed
 * fsync, and every write after it is refused (not applied) until the next load, as a real store
 * refuses writes after a failure until the engine is reloaded.
 */
final class ReplayedFaults extends ForwardingStore {

    private final Store store;
    private int skip = -1;
    private boolean applied;
    private boolean fenced;

    ReplayedFaults(Store store) {
        this.store = store;
    }

    @Override
    protected Store delegate() {
        return store;
    }

    void arm(int skipWrites, boolean appliedFirst) {
        skip = skipWrites;
        applied = appliedFirst;
    }

    /** The command the fault was armed for is done: a fault it did not reach lapses. */
    void commandDone() {
        skip = -1;
    }

    /** A load: the engine was rebuilt, writes are taken again. */
    void reloaded() {
        fenced = false;
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (fenced) {
            return CompletableFuture.failedFuture(new StoreException("not written: an earlier write failed"));
        }
        if (skip >= 0 && skip-- == 0) {
            fenced = true;
            if (applied) {
                store.write(batch).join();
            }
            return CompletableFuture.failedFuture(new StoreException("replayed fault"));
        }
        return store.write(batch);
    }
}
