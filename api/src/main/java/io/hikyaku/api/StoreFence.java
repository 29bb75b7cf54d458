package io.hikyaku.api;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The store as the engines see it: passes reads and writes through, notices the first write that
 * fails (disk full, I/O error, failed fsync) and from then on refuses every write without passing it
 * on, until {@link #clear()}. An engine changes its memory before the store has the batch, so after
 * a failure memory is ahead of the disk; {@link EngineGate} stops all commands while fenced, and
 * {@link StoreRecovery} rebuilds every engine from the store before the fence is cleared. One fence serves every engine
 * shard over the store: a failure stops them all, as the store's failure is theirs too.
 *
 * <p>Each engine writes through its own {@link Lane}, which remembers the latest write it handed to
 * the store: a read waits for that one ({@link Lane#barrier()}) before it answers, so no answer
 * shows state that is not yet durable (an engine's state is its own: another shard's writes do not
 * concern its answers). A lane is used on its engine's applier thread, except {@link #fenced()} and the
 * failure callbacks (store threads), which only set a volatile field and call {@code onFence}.
 *
 * <p>The store completes a write on its WAL-sync thread; the lane only puts up the fence there (on a
 * failure) and hands the rest (every client answer that waits on the write) to one answers thread, so
 * a slow client continuation never delays the next fsync.
 */
final class StoreFence {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final Store store;
    private final Runnable onFence;
    private volatile StoreException cause;
    /** Answers held until recovery (guarded by this). */
    private List<Runnable> held = new ArrayList<>();
    private final List<Lane> lanes = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Where settled writes' dependents run (never the store's WAL-sync thread). */
    private final java.util.concurrent.ExecutorService answers = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hikyaku-answers");
        t.setDaemon(true);
        return t;
    });

    StoreFence(Store store, Runnable onFence) {
        this.store = store;
        this.onFence = onFence;
    }

    /** A new engine's way to the store. */
    Lane lane() {
        Lane lane = new Lane();
        lanes.add(lane);
        return lane;
    }

    /** Why writes are refused, or null. */
    StoreException fenced() {
        return cause;
    }

    /** Puts up the fence (the first cause is kept); callable from any thread. */
    void fence(Throwable failure) {
        StoreException why = asStoreException(failure);
        synchronized (this) {
            if (cause != null) {
                return;
            }
            cause = why;
        }
        onFence.run();
    }

    /**
     * Holds the answer to a write whose outcome is unknown (applied, fsync failed) until the store
     * has recovered, which makes every applied batch durable: then the answer is a success.
     */
    void holdUntilRecovered(Throwable failure, Runnable answer) {
        synchronized (this) {
            held.add(answer);
        }
        fence(failure); // no-op when already fenced; else (a late report) one more recovery round
    }

    /** After every engine was rebuilt from the store: writes pass again. Returns the held answers to give. */
    List<Runnable> clear() {
        synchronized (this) {
            cause = null;
            // what was written before has settled; the failed writes are not in the store
            lanes.forEach(lane -> lane.last = DONE);
            List<Runnable> answers = held;
            held = new ArrayList<>();
            return answers;
        }
    }

    /** The latest write of every lane, done or not (the recovery waits for them to settle). */
    CompletableFuture<Void> lastWrites() {
        return CompletableFuture.allOf(lanes.stream().map(lane -> lane.last.handle((v, e) -> (Void) null))
                .toArray(CompletableFuture[]::new));
    }

    boolean resume() {
        return store.resume();
    }

    /** After the store closed (its last writes settled): the answers thread ends once it has given them. */
    void close() {
        answers.shutdown();
        try {
            answers.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@code settle} on the answers thread (inline once that has stopped). */
    private void handOver(Runnable settle) {
        try {
            answers.execute(settle);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            settle.run();
        }
    }

    /** One engine's writes and reads; see {@link StoreFence}. */
    final class Lane extends ForwardingStore {

        /** The latest write this lane passed to the store: set on its engine's applier, reset by the recovery (no lock). */
        private volatile CompletableFuture<Void> last = DONE;

        private Lane() {}

        @Override
        protected Store delegate() {
            return store;
        }

        StoreFence owner() {
            return StoreFence.this;
        }

        /**
         * Completes once every write this lane passed to the store so far is durable; fails if one of
         * them failed (the store fails every batch after a failed one, so the latest write's outcome
         * covers them all).
         */
        CompletableFuture<Void> barrier() {
            StoreException why = cause;
            return why != null ? CompletableFuture.failedFuture(refusal(why)) : last;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            StoreException why = cause;
            if (why != null) {
                return CompletableFuture.failedFuture(refusal(why));
            }
            if (batch.isEmpty()) {
                // A command that changed nothing (a second delete of a message) is judged on memory, which
                // may hold a change not yet durable: its answer waits for every write before it, as a read's.
                return last;
            }
            // The fence goes up before anyone hears of the failure: a caller told 503 may call again at
            // once, and that call must not reach the engine, whose memory still holds the failed change.
            // (A callback on the store's own future would not do: dependents run newest first, so the
            // answer would go out before the fence.)
            CompletableFuture<Void> settled = new CompletableFuture<>();
            CompletableFuture<Void> written = store.write(batch);
            if (written.isDone()) { // settled at once (a store in memory): on the caller's thread, no hand-over
                settle(written, settled);
            } else {
                written.whenComplete((ok, failure) -> {
                    if (failure != null) {
                        fence(failure); // here, before the hand-over: the fence is up before anyone hears
                    }
                    long handed = System.nanoTime();
                    handOver(() -> {
                        CallStages.record(CallStages.Stage.HANDED_OVER, System.nanoTime() - handed);
                        settle(written, settled);
                    });
                });
            }
            last = settled;
            return settled;
        }

        private void settle(CompletableFuture<Void> written, CompletableFuture<Void> settled) {
            try {
                written.join();
                settled.complete(null);
            } catch (RuntimeException failure) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                fence(cause);
                settled.completeExceptionally(cause);
            }
        }

        /** The store outlives its engines (several share it): the service closes it. */
        @Override
        public void close() {
        }
    }

    private static StoreException refusal(StoreException why) {
        return new StoreException("not written: storage is recovering from a failed write (" + why.getMessage() + ")", why);
    }

    static StoreException asStoreException(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof StoreException s ? s : new StoreException(String.valueOf(cause.getMessage()), cause);
    }
}
