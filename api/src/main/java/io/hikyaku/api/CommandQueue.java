package io.hikyaku.api;

import io.hikyaku.protocol.ApiException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The bounded hand-off between the threads that call the service (the server's event loops, which
 * must never block) and the one engine thread that runs every command: validation, the engine under
 * its lock, store reads (message bodies on receive). One thread keeps the callers' order: two calls
 * made one after the other run in that order. When {@link #CAPACITY} commands already wait, a new
 * one is refused with {@code RequestThrottled} (HTTP 403), the throttling error of Amazon SQS's
 * model, which the AWS SDKs retry with back-off; the queue never grows beyond it.
 *
 * <p>A connection has at most one command here at a time (HTTP/1.1 requests of a connection are
 * served in order, one by one), so the limit is only reached with more connections than it, all
 * sending at once while the engine thread falls behind.
 */
final class CommandQueue {

    /** Above the 10,000 parked long polls the server is sized for, each of which may re-poll at once. */
    static final int CAPACITY = 16_384;

    private final ThreadPoolExecutor thread;

    CommandQueue(int capacity) {
        this(capacity, "hikyaku-engine");
    }

    /** With the engine thread named {@code threadName} (one per engine shard). */
    CommandQueue(int capacity, String threadName) {
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(capacity), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code command} on the engine thread; throws RequestThrottled when the queue is full or closed. */
    void submit(Runnable command) {
        try {
            thread.execute(command);
        } catch (RejectedExecutionException full) {
            throw throttled();
        }
    }

    static ApiException throttled() {
        return new ApiException("RequestThrottled",
                "The request was denied due to request throttling: the server's command queue is full.");
    }

    /** Commands already queued still run; waits for them (bounded), then the thread ends. */
    void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Returns once every command submitted before this call has run (tests: a deterministic point). */
    void awaitQueued() {
        java.util.concurrent.CompletableFuture<Void> marker = new java.util.concurrent.CompletableFuture<>();
        thread.execute(() -> marker.complete(null));
        marker.join();
    }

    /** Commands waiting (not counting the one running). */
    int waiting() {
        return thread.getQueue().size();
    }
}
