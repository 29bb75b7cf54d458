package io.hikyaku.api;

import io.hikyaku.engine.Durable;
import io.hikyaku.engine.EngineException;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.protocol.ApiException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The single door to the engine, which is not thread-safe: every call runs under one lock, kept
 * short (no I/O waits inside: store writes only start there). Engine refusals become
 * {@link ApiException}s with the same type and message; a failed store write becomes InternalError.
 *
 * <p>The gate is also the sequencer of time: every command's {@code now} is read from the clock
 * inside the critical section that applies it ({@link #now()}), and never goes back (a wall clock
 * stepped backwards holds at the last stamp until it catches up), so commands are applied in the
 * order of their timestamps, which the engine asserts.
 */
final class EngineGate {

    /** An engine call stamped with the sequencer's {@code now}. */
    @FunctionalInterface
    interface Call<T> {
        T apply(QueueEngine engine, long now);
    }

    private final QueueEngine engine;
    private final ReentrantLock lock = new ReentrantLock();
    private final java.time.Clock clock;
    /** The last stamp handed out; guarded by the lock. */
    private long lastNow = Long.MIN_VALUE;
    /**
     * Told the engine's next deadline after every critical section, so the timer thread (which
     * sleeps until its planned deadline) wakes for an earlier one, or at once for a due one.
     */
    private volatile java.util.function.LongConsumer onDeadline = d -> { };

    EngineGate(QueueEngine engine, java.time.Clock clock) {
        this.engine = engine;
        this.clock = clock;
        this.lastNow = engine.appliedAt(); // the load's stamp: the first command is not earlier
    }

    /** The time of the command being applied: the clock, read under the lock, never earlier than the last stamp. */
    long now() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("time stamped outside the engine lock");
        }
        long t = clock.millis();
        if (t < lastNow) {
            t = lastNow;
        }
        lastNow = t;
        return t;
    }

    void onDeadline(java.util.function.LongConsumer deadlineAt) {
        this.onDeadline = deadlineAt;
    }

    /** A read or decision under the lock, stamped with the sequencer's time. */
    <T> T read(Call<T> call) {
        lock.lock();
        try {
            return call.apply(engine, now());
        } catch (EngineException e) {
            throw translate(e);
        } finally {
            nudgeIfDue();
            lock.unlock();
        }
    }

    /** A change under the lock; the future completes (outside the lock) once it is durable. */
    <T> CompletableFuture<T> write(Call<Durable<T>> call) {
        Durable<T> durable = read(call);
        return whenDurable(durable);
    }

    static <T> CompletableFuture<T> whenDurable(Durable<T> durable) {
        CompletableFuture<T> out = new CompletableFuture<>();
        durable.written().whenComplete((ok, failure) -> {
            if (failure == null) {
                out.complete(durable.value());
            } else {
                out.completeExceptionally(asApiException(failure));
            }
        });
        return out;
    }

    /** Runs {@code body} while holding the engine lock (for multi-step critical sections). */
    void locked(Runnable body) {
        lock.lock();
        try {
            body.run();
        } catch (EngineException e) {
            throw translate(e);
        } finally {
            nudgeIfDue();
            lock.unlock();
        }
    }

    private void nudgeIfDue() {
        onDeadline.accept(engine.nextDeadline());
    }

    QueueEngine engineUnderLock() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("engine used without its lock");
        }
        return engine;
    }

    static ApiException translate(EngineException e) {
        return new ApiException(e.errorType(), e.getMessage());
    }

    /** Any failure as the client's error: ApiException as is, engine refusals translated, else InternalError. */
    static ApiException asApiException(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof ApiException api) {
            return api;
        }
        if (cause instanceof EngineException engineError) {
            return translate(engineError);
        }
        if (!(cause instanceof io.hikyaku.engine.store.StoreException)
                && !(cause instanceof java.util.concurrent.CancellationException)) {
            org.slf4j.LoggerFactory.getLogger(EngineGate.class).error("Unexpected failure", cause);
        }
        return new ApiException("InternalError", "We encountered an internal error. Please try again.");
    }
}
