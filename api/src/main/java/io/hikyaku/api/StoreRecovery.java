package io.hikyaku.api;

import io.hikyaku.engine.store.StoreException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens after a write failed (the {@link StoreFence} is up, every command gets 503): one thread
 * asks the store to {@link io.hikyaku.engine.store.Store#resume() resume} (backing off from 50 ms to 1 s
 * between tries), and once it has, loads a new engine from the store ({@link ShardHost#reload}, a task
 * on each shard's applier, waited for here) so that memory is exactly what the disk has, then lets
 * commands through again. A bug in apply fences the same way (see {@link EngineGate}). Parked long polls are
 * answered with 503 when the fence goes up: what they were waiting on may not be on disk. While the
 * store keeps refusing, a warning is logged every 30 s; the server stays up (reads of the store
 * still work, /health says why) and recovers by itself once space or the device is back.
 */
final class StoreRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(StoreRecovery.class);
    private static final long MAX_BACKOFF_MS = 1000;
    private static final long STILL_FAILING_LOG_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Clock clock;
    private List<? extends ShardHost> shards;
    private StoreFence fence;
    /** The running recovery, or null (guarded by this). */
    private Thread thread;
    private volatile boolean stopped;

    StoreRecovery(Clock clock) {
        this.clock = clock;
    }

    /**
     * Wiring: the fence and every engine shard are built around this (the fence calls {@link #start}
     * when it goes up).
     */
    void attach(List<? extends ShardHost> shards, StoreFence fence) {
        this.shards = List.copyOf(shards);
        this.fence = fence;
    }

    /** The fence went up: starts the recovery thread unless one runs. Cheap; never blocks. */
    synchronized void start() {
        if (thread != null || stopped) {
            return;
        }
        thread = new Thread(this::run, "hikyaku-store-recovery");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        Thread running;
        synchronized (this) {
            stopped = true;
            running = thread;
        }
        if (running != null) {
            running.interrupt();
            try {
                running.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        while (!stopped) {
            StoreException cause = fence.fenced();
            if (cause == null) {
                synchronized (this) {
                    if (fence.fenced() == null) {
                        thread = null;
                        return;
                    }
                }
                continue;
            }
            if (!recover(cause)) {
                return;
            }
        }
    }

    /** One recovery from {@code cause}; false if stopped first. */
    private boolean recover(StoreException cause) {
        if (cause instanceof Fenced) { // a cluster node that does not lead: expected, not a failure
            LOG.info("{}; this node's engine answers 503 ServiceUnavailable until the store accepts writes again, "
                    + "then the state is reloaded from the store", cause.getMessage());
        } else {
            LOG.error("storage write failed ({}); every request now gets 503 ServiceUnavailable until the store "
                    + "accepts writes again, then the state is reloaded from the store", cause.getMessage());
        }
        for (ShardHost shard : shards) {
            if (!await(shard.failWaiters(EngineGate.unavailable()))) {
                return false;
            }
        }
        long start = System.nanoTime();
        long lastLog = start;
        long backoff = 50;
        while (!stopped) {
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return false;
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            String notYet = resumed();
            if (notYet != null) {
                if (System.nanoTime() - lastLog > STILL_FAILING_LOG_NANOS) {
                    lastLog = System.nanoTime();
                    LOG.warn("storage not recovered after {} s: {} (first failure: {}); requests get 503 ServiceUnavailable",
                            TimeUnit.NANOSECONDS.toSeconds(lastLog - start), notYet, cause.getMessage());
                }
                continue;
            }
            List<Runnable> held;
            try {
                for (ShardHost shard : shards) {
                    if (!await(shard.reload(clock.millis()))) {
                        return false;
                    }
                }
                held = fence.clear(); // every engine holds what the disk has: commands pass again
            } catch (RuntimeException e) {
                LOG.error("reloading the state from the store failed; still refusing requests", e);
                continue;
            }
            held.forEach(Runnable::run);
            if (cause instanceof Fenced) {
                LOG.info("store resumed after {} ms: state reloaded from the store, this node's engine serves",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            } else {
                LOG.warn("storage recovered after {} ms: state reloaded from the store, serving again{}",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                        held.isEmpty() ? "" : " (" + held.size() + " answers held since a failed fsync given)");
            }
            return true;
        }
        return false;
    }

    /** The cause of a fence the service was asked to put up ({@link SqsService#fence}), not a failed write. */
    static final class Fenced extends StoreException {
        Fenced(String why) {
            super(why);
        }
    }

    /** Waits for a step on a shard's applier; false if interrupted (stopping); rethrows its failure. */
    private static boolean await(java.util.concurrent.CompletableFuture<Void> step) {
        try {
            step.get();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a shard's step failed", e.getCause());
        }
    }

    /**
     * Null once the store accepts writes again and every write handed to it before the failure has
     * settled (so nothing lands in the store while, or after, the engine is reloaded); else why not.
     */
    private String resumed() {
        try {
            if (!fence.resume()) {
                return "the store still refuses writes";
            }
            fence.lastWrites().get(10, TimeUnit.SECONDS);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (java.util.concurrent.TimeoutException e) {
            return "a write from before the failure has not settled";
        } catch (Exception e) {
            return "resuming the store failed: " + e;
        }
    }
}
