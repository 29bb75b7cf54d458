package io.hikyaku.api;

import io.hikyaku.engine.Durable;
import io.hikyaku.engine.EngineException;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.command.CommandSink;
import io.hikyaku.engine.command.Applied;
import io.hikyaku.engine.store.StoreException;
import io.hikyaku.protocol.ApiException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single door to the engine, which is not thread-safe: every call runs on the shard's applier
 * thread ({@link CommandQueue}), which owns the engine; no lock. Any other thread that reaches the
 * engine is a bug: {@link #engine()} counts it ({@link EngineThreadCheck}) and throws. Engine
 * refusals become {@link ApiException}s with the same type and message.
 *
 * <p>Fail-stop on storage errors: the engine changes memory before the store has the batch, so a
 * failed write leaves memory ahead of the disk. From the first failure on (the {@link StoreFence}),
 * no command reaches the engine: every call gets 503 ServiceUnavailable, and {@link StoreRecovery}
 * waits until the store accepts writes again, then replaces the engine by one loaded from the store,
 * so memory is exactly what the disk has before anything is served again. Fail-stop on bugs too: any
 * exception from {@code apply} other than a refusal ({@link EngineException}) or a store error may
 * have left memory half-changed, so it fences the same way (the failing call gets InternalError,
 * whose outcome is unknown; the next ones 503 until the reload).
 *
 * <p>The gate is also the sequencer of time: every command's {@code now} is read from the clock on
 * the applier as it applies it ({@link #now()}), and never goes back (a wall clock stepped backwards
 * holds at the last stamp until it catches up), so commands are applied in the order of their
 * timestamps, which the engine asserts.
 */
final class EngineGate {

    private static final Logger LOG = LoggerFactory.getLogger(EngineGate.class);

    /** An engine call stamped with the sequencer's {@code now}. */
    @FunctionalInterface
    interface Call<T> {
        T apply(QueueEngine engine, long now);
    }

    /** A test hook run right after the engine applied a command (it may throw, as a bug in apply would). */
    @FunctionalInterface
    interface AfterApply {
        AfterApply NONE = (command, engine) -> { };

        void check(Command<?> command, QueueEngine engine);
    }

    private final CommandQueue applier;
    private final LongFunction<QueueEngine> loader;
    private final StoreFence fence;
    /** This engine's writes (what its reads' answers wait for). */
    private final StoreFence.Lane lane;
    private final java.time.Clock clock;
    /** Sends not yet durable, by message id: what a receive's answer waits for. */
    private final PendingSends pendingSends = new PendingSends();
    private QueueEngine engine;
    /** Told every command applied, in order (the journal); applier only. */
    private CommandSink sink = CommandSink.NONE;
    /** The last stamp handed out; applier only. */
    private long lastNow = Long.MIN_VALUE;
    private AfterApply afterApply = AfterApply.NONE;
    /** Engines loaded so far (1 at start, one more per reload). */
    private volatile int loads;
    private java.util.function.Consumer<QueueEngine> afterEachCall = engine -> { };
    /**
     * Told the engine's next deadline after every call, so the timer thread (which sleeps until its
     * planned deadline) wakes for an earlier one, or at once for a due one.
     */
    private volatile java.util.function.LongConsumer onDeadline = d -> { };

    /**
     * {@code loader} builds an engine from the store as of the given time (at start and after a
     * failure); {@code applier} is the only thread that may use it.
     */
    EngineGate(LongFunction<QueueEngine> loader, StoreFence.Lane lane, java.time.Clock clock, CommandQueue applier) {
        this.loader = loader;
        this.lane = lane;
        this.fence = lane.owner();
        this.clock = clock;
        this.applier = applier;
        this.engine = loader.apply(clock.millis()); // before the applier starts: it sees this write
        this.loads = 1;
        this.lastNow = engine.appliedAt(); // the load's stamp: the first command is not earlier
    }

    /** The time of the command being applied: the clock, read on the applier, never earlier than the last stamp. */
    long now() {
        requireApplier();
        long t = clock.millis();
        if (t < lastNow) {
            t = lastNow;
        }
        lastNow = t;
        return t;
    }

    /**
     * The one way commands reach the engine (on the applier, with a command stamped by
     * {@link #now()}): applies it, tells the sink, and throws a refusal as the engine methods do
     * (the callers' error handling then translates it), else returns the value and its durability.
     * Any other exception is a bug that may have left memory half-changed: the shard is fenced and
     * reloaded from the store (see the class comment).
     */
    <T> Durable<T> apply(Command<T> command) {
        QueueEngine current = engine();
        CompletableFuture<Void> before = lane.barrier();
        Applied<T> result;
        try {
            result = current.apply(command);
            afterApply.check(command, current);
        } catch (EngineException | StoreException expected) {
            throw expected;
        } catch (RuntimeException bug) {
            throw bugInApply(command, bug);
        }
        if (result.written() != before && mayMakeReceivable(command, current)) {
            pendingSends.other(result.written());
        }
        sink.applied(command);
        if (result.refused()) {
            throw result.error();
        }
        return new Durable<>(result.value(), result.written());
    }

    /**
     * Whether a command that wrote may have made a message receivable other than by sending it (a
     * standard queue's receive then waits for it, see {@link PendingSends}). Sends are tracked by message;
     * a timer step of one queue only derives what the stored state says; a standard queue's delete hides
     * its message only; a receive moves nothing unless its queue redrives to a dead-letter queue.
     */
    private static boolean mayMakeReceivable(Command<?> command, QueueEngine engine) {
        if (command instanceof Command.SendMessage || command instanceof Command.SendMessageBatch || command instanceof Command.SendOnce
                || command instanceof Command.Advance) {
            return false;
        }
        if (command instanceof Command.DeleteMessage d) {
            return d.queue().name().endsWith(".fifo");
        }
        if (command instanceof Command.DeleteMessageBatch d) {
            return d.queue().name().endsWith(".fifo");
        }
        if (command instanceof Command.ReceiveMessage r) {
            return redrives(r.queue(), engine);
        }
        return true;
    }

    private static final java.util.List<String> REDRIVE = java.util.List.of("RedrivePolicy");

    private static boolean redrives(io.hikyaku.engine.QueueRef queue, QueueEngine engine) {
        try {
            return engine.readQueueAttributes(queue, REDRIVE).get("RedrivePolicy") != null;
        } catch (EngineException gone) {
            return true;
        }
    }

    private ApiException bugInApply(Command<?> command, RuntimeException bug) {
        LOG.error("bug: applying {} threw; the shard is fenced and reloaded from the store", command.getClass().getSimpleName(), bug);
        fence.fence(new StoreException("the engine failed applying " + command.getClass().getSimpleName() + ": " + bug, bug));
        return new ApiException("InternalError", "We encountered an internal error. Please try again.");
    }

    /** Tests: runs {@code hook} after every command the engine applied (a throwing hook is a bug in apply). */
    void afterApply(AfterApply hook) {
        requireApplier();
        this.afterApply = hook == null ? AfterApply.NONE : hook;
    }

    /** Engines loaded so far (1 at start, one more per reload after a failure); any thread. */
    int loads() {
        return loads;
    }

    /** Sets where applied commands go (the journal); it is told the current engine's load first. Applier only. */
    void sink(CommandSink next) {
        requireApplier();
        sink = next == null ? CommandSink.NONE : next;
        sink.loaded(engine.appliedAt(), engine);
    }

    /** The final state goes to the sink (at close, after the last command). Applier only. */
    void stopSink() {
        requireApplier();
        sink.stopped(engine);
    }

    void onDeadline(java.util.function.LongConsumer deadlineAt) {
        this.onDeadline = deadlineAt;
    }

    /**
     * Runs {@code check} after every call that may have changed the engine (commands, timer rounds,
     * a reload), on the applier, unless fenced (the memory report).
     */
    void afterEachCall(java.util.function.Consumer<QueueEngine> check) {
        this.afterEachCall = check;
    }

    /** A read or decision on the applier, stamped with the sequencer's time (its answer is not yet known durable: see {@link #afterWrites}). */
    <T> T read(Call<T> call) {
        requireApplier();
        try {
            refuseIfFenced();
            return call.apply(engine, now());
        } catch (EngineException e) {
            throw translate(e);
        } catch (StoreException e) {
            throw storeFailed(e);
        } finally {
            nudgeIfDue();
        }
    }

    /**
     * The answer to a read made just before: it waits until every change written so far is durable,
     * so a client never sees state the disk does not have (a count that includes a send whose write
     * then fails). With group commit this costs at most the fsync already under way.
     */
    <T> CompletableFuture<T> afterWrites(T value) {
        return whenDurable(new Durable<>(value, lane.barrier()));
    }

    /**
     * Answers a refusal once every change written so far is durable. A refusal is judged on memory
     * ("does not exist", "not available for a visibility change"), which may hold a change whose
     * write has not settled: if that write then fails, the refusal would show the client a state
     * the disk never had. So it waits like a read's answer; if the earlier write fails, the client
     * gets that write's ServiceUnavailable instead (retrying then sees the reloaded state).
     */
    void refuseAfterWrites(ApiException refusal, CompletableFuture<?> out) {
        CompletableFuture<Void> earlier = lane.barrier();
        whenDurable(new Durable<Void>(null, earlier)).whenComplete((ok, failure) -> {
            if (failure == null) {
                out.completeExceptionally(refusal);
            } else {
                out.completeExceptionally(asApiException(failure));
            }
        });
    }

    /** A change on the applier; the future completes once it is durable. */
    <T> CompletableFuture<T> write(Call<Durable<T>> call) {
        Durable<T> durable = read(call);
        return whenDurable(durable);
    }

    /** The sends whose writes are not yet durable (the receives' answers wait for them). */
    PendingSends pendingSends() {
        return pendingSends;
    }

    /** Every write handed to the store so far is durable (call on the applier). */
    CompletableFuture<Void> barrier() {
        return lane.barrier();
    }

    /**
     * The client's answer once the change is durable. A batch that was not written fails with
     * ServiceUnavailable (nothing changed). A batch applied whose fsync failed has an unknown
     * outcome: its answer is held, and given once the store has recovered (which makes every
     * applied batch durable); if the process stops first, the client sees its connection close.
     */
    <T> CompletableFuture<T> whenDurable(Durable<T> durable) {
        CompletableFuture<T> out = new CompletableFuture<>();
        durable.written().whenComplete((ok, failure) -> {
            if (failure == null) {
                out.complete(durable.value());
            } else if (StoreFence.asStoreException(failure).outcomeUnknown()) {
                fence.holdUntilRecovered(failure, () -> out.complete(durable.value()));
            } else {
                out.completeExceptionally(asApiException(failure));
            }
        });
        return out;
    }

    /** Runs {@code body} on the applier as one step (multi-step sections: a change and the long polls it wakes). */
    void step(Runnable body) {
        requireApplier();
        try {
            refuseIfFenced();
            body.run();
        } catch (EngineException e) {
            throw translate(e);
        } catch (StoreException e) {
            throw storeFailed(e);
        } finally {
            nudgeIfDue();
        }
    }

    boolean isFenced() {
        return fence.fenced() != null;
    }

    /**
     * Recovery's step for this engine, called once the store accepts writes again: a new engine
     * loaded from the store replaces the old one. Throws if loading fails. Commands pass again once
     * every engine is reloaded and the recovery clears the fence.
     */
    void reload(long now) {
        requireApplier();
        try {
            pendingSends.clear(); // the failed sends are not in the store, the held ones are durable
            engine = loader.apply(Math.max(now, lastNow));
            loads++;
            lastNow = Math.max(lastNow, engine.appliedAt());
            sink.loaded(engine.appliedAt(), engine);
        } finally {
            nudgeIfDue();
        }
    }

    private void nudgeIfDue() {
        if (fence.fenced() == null) {
            afterEachCall.accept(engine);
            onDeadline.accept(engine.nextDeadline());
        }
    }

    /** The engine; only its applier thread may reach it (anyone else is counted and refused). */
    QueueEngine engine() {
        requireApplier();
        return engine;
    }

    private void requireApplier() {
        if (!applier.onApplier()) {
            throw EngineThreadCheck.violation(Thread.currentThread());
        }
    }

    private void refuseIfFenced() {
        if (fence.fenced() != null) {
            throw unavailable();
        }
    }

    /**
     * A read of the store failed inside a command: the command may have changed memory halfway, so
     * the engine is rebuilt as after a failed write.
     */
    private ApiException storeFailed(StoreException e) {
        fence.fence(e);
        return unavailable();
    }

    static ApiException translate(EngineException e) {
        return new ApiException(e.errorType(), e.getMessage());
    }

    /**
     * 503 ServiceUnavailable: what SQS answers for a temporary failure of the server. Unlike
     * 500 InternalError (outcome unknown), it says the request was not processed, which is exactly
     * what a refused or failed write means here; SDKs retry it with backoff.
     */
    static ApiException unavailable() {
        return new ApiException("ServiceUnavailable", "The request has failed due to a temporary failure of the server.");
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
        if (cause instanceof StoreException store && !store.outcomeUnknown()) {
            return unavailable(); // not written: nothing changed
        }
        if (!(cause instanceof StoreException) && !(cause instanceof java.util.concurrent.CancellationException)) {
            LOG.error("unexpected failure", cause);
        }
        return new ApiException("InternalError", "We encountered an internal error. Please try again.");
    }
}
