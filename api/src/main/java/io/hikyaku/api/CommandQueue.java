package io.hikyaku.api;

import io.hikyaku.protocol.ApiException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The applier thread of one shard and the queue in front of it: every task that touches the
 * shard's engine runs here, one at a time, in the order it was handed over (client calls from the
 * event loops, timer rounds, reloads, snapshot publications, long-poll bookkeeping), so the engine
 * needs no lock. Tasks run in batches: after each batch (the queue drained, or {@link #MAX_BATCH}
 * tasks), {@code afterBatch} runs (the shard publishes its snapshots there).
 *
 * <p>Client calls are bounded: when {@link #CAPACITY} of them already wait, a new one is refused with
 * {@code RequestThrottled} (HTTP 403), the throttling error of Amazon SQS's model, which the AWS SDKs
 * retry with back-off. The host's own tasks ({@link #call}) are not counted: at most a few of them
 * wait at a time (one timer round, one recovery step, one snapshot request per reader), and refusing
 * one would stop timers or recovery.
 *
 * <p>A connection has at most one command here at a time (HTTP/1.1 requests of a connection are
 * served in order, one by one), so the limit is only reached with more connections than it, all
 * sending at once while the applier falls behind.
 */
final class CommandQueue {

    /** Above the 10,000 parked long polls the server is sized for, each of which may re-poll at once. */
    static final int CAPACITY = 16_384;
    /** Tasks between two {@code afterBatch} calls at most, so a busy applier still publishes. */
    static final int MAX_BATCH = 256;

    private static final Runnable STOP = () -> { };

    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final AtomicInteger clientsWaiting = new AtomicInteger();
    private final int capacity;
    private final Thread thread;
    private volatile boolean closed;
    /** Runs after each batch; returns how long (ms) the applier may stay idle before it wants to run again. */
    private volatile LongSupplier afterBatch = () -> Long.MAX_VALUE;

    CommandQueue(int capacity) {
        this(capacity, "hikyaku-engine");
    }

    /** With the applier thread named {@code threadName} (one per engine shard). */
    CommandQueue(int capacity, String threadName) {
        this.capacity = capacity;
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    /** Sets the after-batch step; call before {@link #start}. */
    void afterBatch(LongSupplier step) {
        this.afterBatch = step;
    }

    /** Starts the applier thread; again: nothing. */
    synchronized void start() {
        if (thread.getState() == Thread.State.NEW) {
            thread.start();
        }
    }

    /** Whether the caller is the applier thread. */
    boolean onApplier() {
        return Thread.currentThread() == thread;
    }

    /**
     * Runs a client's {@code command} on the applier; throws RequestThrottled when the queue is full or
     * closed. A command accepted here always runs: the check of {@code closed} and the hand-over are one
     * step under the queue's lock, which {@link #close} takes to queue its stop, so no command lands
     * behind the stop (it would never run, and its caller never hear).
     */
    void submit(Runnable command) {
        if (clientsWaiting.incrementAndGet() > capacity) {
            clientsWaiting.decrementAndGet();
            throw throttled();
        }
        synchronized (this) {
            if (closed) {
                clientsWaiting.decrementAndGet();
                throw throttled();
            }
            tasks.add(() -> {
                clientsWaiting.decrementAndGet();
                command.run();
            });
        }
    }

    /**
     * Runs one of the host's own tasks on the applier (never refused for capacity); the future fails
     * with the task's exception, or at once when the queue is closed.
     */
    <T> CompletableFuture<T> call(Supplier<T> task) {
        CompletableFuture<T> out = new CompletableFuture<>();
        synchronized (this) { // as in submit: never behind the stop
            if (closed) {
                out.completeExceptionally(new IllegalStateException("the shard's applier has stopped"));
                return out;
            }
            tasks.add(() -> {
                try {
                    out.complete(task.get());
                } catch (RuntimeException | Error e) {
                    out.completeExceptionally(e);
                }
            });
        }
        return out;
    }

    static ApiException throttled() {
        return new ApiException("RequestThrottled",
                "The request was denied due to request throttling: the server's command queue is full.");
    }

    private void loop() {
        long idle = Long.MAX_VALUE;
        while (true) {
            Runnable task;
            try {
                task = idle == Long.MAX_VALUE ? tasks.take() : tasks.poll(Math.max(1, idle), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            int ran = 0;
            while (task != null) {
                if (task == STOP) {
                    runAfterBatch();
                    return;
                }
                runSafely(task);
                if (++ran >= MAX_BATCH) {
                    break;
                }
                task = tasks.poll();
            }
            idle = runAfterBatch();
        }
    }

    private long runAfterBatch() {
        try {
            return afterBatch.getAsLong();
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(CommandQueue.class).warn("after-batch step failed", e);
            return Long.MAX_VALUE;
        }
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            // A task answers its own caller; one that throws must not stop the applier.
            org.slf4j.LoggerFactory.getLogger(CommandQueue.class).error("applier task failed", e);
        }
    }

    /**
     * No new client call is accepted; {@code last} runs after every task already queued, then the
     * thread ends (waits for it, bounded).
     */
    void close(Runnable last) {
        synchronized (this) {
            closed = true;
            tasks.add(() -> runSafely(last));
            tasks.add(STOP);
            if (thread.getState() == Thread.State.NEW) {
                thread.start(); // a service closed before it started still runs what was queued
            }
        }
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
    }

    /** Returns once every task handed over before this call has run (tests: a deterministic point). */
    void awaitQueued() {
        call(() -> null).join();
    }

    /** Client calls waiting (not counting the one running). */
    int waiting() {
        return clientsWaiting.get();
    }
}
