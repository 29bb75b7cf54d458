package io.hikyaku.server.auth;

import io.hikyaku.protocol.ApiException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Where policy evaluation runs when a request needs it: a small bounded pool, never a Netty event
 * loop, so that one tenant's expensive conditions delay only the requests queued behind them here and
 * not every connection of an event loop. Requests whose authorization is cheap are never sent here
 * (an account root in its own account with no policy anywhere, or policies without conditions or
 * variables and small enough: {@link RequestAuthorization#needsPool}): they are authorized inline.
 * A full queue refuses the request with SQS's {@code RequestThrottled}, as the engine's command queue does.
 */
public final class AuthorizationPool implements AutoCloseable {

    /** Queued evaluations before new ones are refused; at the length caps one costs well under a millisecond. */
    static final int QUEUE = 4096;

    private final ThreadPoolExecutor threads;

    public AuthorizationPool(int threadCount) {
        this.threads = new ThreadPoolExecutor(threadCount, threadCount, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "hikyaku-authorize");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    /** One thread per core, at most two: evaluation is short and CPU-bound. */
    public static AuthorizationPool forThisMachine() {
        return new AuthorizationPool(Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
    }

    /**
     * Runs {@code authorizeThenCall} on the pool: it authorizes (throwing the refusal) and returns the
     * call's future. Cancelling the returned future (a client that went away during a long poll)
     * cancels the call it led to.
     */
    public <T> CompletableFuture<T> run(Supplier<CompletableFuture<T>> authorizeThenCall) {
        CompletableFuture<T> outer = new CompletableFuture<>();
        try {
            threads.execute(() -> {
                if (outer.isDone()) {
                    return; // cancelled while queued: nothing to authorize or run
                }
                CompletableFuture<T> call;
                try {
                    call = authorizeThenCall.get();
                } catch (RuntimeException refusedOrFailed) {
                    outer.completeExceptionally(refusedOrFailed);
                    return;
                }
                if (call == null) {
                    outer.completeExceptionally(new IllegalStateException("the service returned no future"));
                    return;
                }
                outer.whenComplete((r, e) -> {
                    if (outer.isCancelled()) {
                        call.cancel(true);
                    }
                });
                call.whenComplete((r, e) -> {
                    if (e != null) {
                        outer.completeExceptionally(e);
                    } else {
                        outer.complete(r);
                    }
                });
            });
        } catch (RejectedExecutionException full) {
            outer.completeExceptionally(new ApiException("RequestThrottled",
                    "The request was denied due to request throttling: the server's authorization queue is full."));
        }
        return outer;
    }

    @Override
    public void close() {
        threads.shutdown();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
