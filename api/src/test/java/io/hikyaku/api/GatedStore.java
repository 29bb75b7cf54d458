package io.hikyaku.api;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A MemoryStore whose writes become durable only when the test says so (or fail), to check that
 * answers wait for durability.
 */
final class GatedStore extends ForwardingStore {

    private final MemoryStore memory = new MemoryStore();
    private final List<CompletableFuture<Void>> pending = new ArrayList<>();
    private volatile boolean holding;
    private volatile boolean failing;

    @Override
    protected Store delegate() {
        return memory;
    }

    void hold() {
        holding = true;
    }

    void fail() {
        failing = true;
    }

    /** The disk works again: {@link #resume()} says so from now on. */
    void heal() {
        failing = false;
    }

    synchronized void releaseAll() {
        holding = false;
        pending.forEach(f -> f.complete(null));
        pending.clear();
    }

    @Override
    public synchronized CompletableFuture<Void> write(StoreBatch batch) {
        if (failing) {
            return CompletableFuture.failedFuture(new StoreException("disk full")); // not applied
        }
        memory.write(batch);
        if (holding) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            pending.add(f);
            return f;
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean resume() {
        return !failing;
    }
}
