package io.hikyaku.server.storage;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Passes every call through to the real store and remembers whether the latest write failed (disk
 * full, I/O error), so {@code /health} can say "degraded" while writes fail. After a failure the service refuses requests (503) until the
 * store's {@link #resume()} succeeds (it retries by itself: the store recovers once space returns);
 * the state clears then, or with the next write that succeeds.
 */
public final class StoreHealth extends ForwardingStore {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StoreHealth.class);
    private final java.util.concurrent.atomic.AtomicLong failures = new java.util.concurrent.atomic.AtomicLong();

    private final Store store;
    private volatile String problem;

    public StoreHealth(Store store) {
        this.store = store;
    }

    /** Store writes that failed since start. */
    public long failures() {
        return failures.get();
    }

    /** Why writes are failing, or null when the latest write succeeded. */
    public String problem() {
        return problem;
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
            if (failure == null) {
                problem = null;
            } else {
                problem = describe(failure);
                failures.incrementAndGet();
                LOG.warn("Store write failed: {}", problem, failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure);
            }
        });
        return written;
    }

    @Override
    public boolean resume() {
        boolean resumed = store.resume();
        if (resumed) {
            problem = null;
        }
        return resumed;
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }
}
