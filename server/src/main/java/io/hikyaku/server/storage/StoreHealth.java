package io.hikyaku.server.storage;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Passes every call through to the real store, and counts and logs the writes that fail (disk full,
 * I/O error) for {@code /metrics}. Whether the server is degraded is not kept here: the api's fence
 * records the failure that stops commands until the recovery has reloaded
 * ({@code SqsService.storageProblem}, which {@code /health} reads), and the store its own refusal
 * of writes until {@link #resume()}; a third copy here could only disagree with them.
 */
public final class StoreHealth extends ForwardingStore {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StoreHealth.class);
    private final AtomicLong failures = new AtomicLong();

    private final Store store;

    public StoreHealth(Store store) {
        this.store = store;
    }

    /** Store writes that failed since start. */
    public long failures() {
        return failures.get();
    }

    @Override
    protected Store delegate() {
        return store;
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        CompletableFuture<Void> written = store.write(batch);
        // Observe without wrapping: the caller gets the store's own future.
        written.whenComplete((ok, failure) -> {
            if (failure != null) {
                failures.incrementAndGet();
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                LOG.warn("Store write failed: {}", cause.getMessage() == null ? cause.getClass().getSimpleName()
                        : cause.getMessage(), cause);
            }
        });
        return written;
    }
}
