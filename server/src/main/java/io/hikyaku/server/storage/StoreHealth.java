package io.hikyaku.server.storage;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Passes every call through to the real store (its own versions of Store's defaults included) and
 * remembers whether the latest write failed (disk full, I/O error), so {@code /health} can say
 * "degraded" while writes fail. After a failure the service refuses requests (503) until the
 * store's {@link #resume()} succeeds (it retries by itself: the store recovers once space returns);
 * the state clears then, or with the next write that succeeds.
 */
public final class StoreHealth implements Store {

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
    public byte[] get(Keyspace space, byte[] key) {
        return store.get(space, key);
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        store.scan(space, prefix, visitor);
    }

    /** Forwarded, not left to the default: the store's own reads only the heads (start-up memory). */
    @Override
    public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        store.scanHeads(space, prefix, headBytes, visitor);
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        store.scanFrom(space, prefix, from, headBytes, visitor);
    }

    /** Forwarded, not left to the default (a walk of the whole prefix): start-up seeks each queue's last key. */
    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        return store.lastKey(space, prefix);
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

    @Override
    public boolean isEphemeral() {
        return store.isEphemeral();
    }

    @Override
    public void close() {
        store.close();
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }
}
