package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.Ticked;
import io.hikyaku.engine.command.Command;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One engine shard at work, the local {@link ShardHost}: its engine behind its gate (sequence of
 * time, fail-stop), its applier thread and command queue, timer thread (which only sets the cadence:
 * each round is a task on the applier), long polls and the actions that drive them. Shards share
 * only the store and its fence; a request reaches exactly one of them (the account of its {@link ResolvedRequest}).
 */
final class Shard implements ShardHost {

    /** While the applier works, snapshots are published after a batch at most this often (and on request). */
    static final long PUBLISH_EVERY_MS = 100;

    final EngineShard spec;
    final EngineGate gate;
    final Receiver receiver;
    final CommandQueue commands;
    final TimerLoop timers;
    private final Clock clock;
    private final QueueActions queues;
    private final MessageActions messages;
    private final MoveTaskActions moveTasks;
    private final PeekActions peeks;
    private final MemoryReport memory;
    /** The engine's memory use as of its last call (published on the applier, read by metrics on any thread). */
    volatile io.hikyaku.engine.IndexUsage indexUsage;
    /** The latest published snapshot (any thread reads it). */
    private volatile ShardSnapshot published;
    /** Applier only: whether tasks ran since the last publication, and when it was (nanoTime). */
    private boolean dirty;
    private long publishedAtNanos;
    /** Its queues' Policy and tags, for authorization without reaching the engine; follows each (re)loaded engine. */
    final AccessSnapshots access = new AccessSnapshots();

    /**
     * {@code maxIndexedMessages} is this shard's part of the index budget; {@code events} gives the
     * listener a (re)loaded engine gets.
     */
    Shard(EngineShard spec, StoreFence fence, Clock clock, String region, int commandCapacity, boolean cooldowns,
          long maxIndexedMessages, long indexWindow, Consumer<String> log,
          Supplier<io.hikyaku.engine.EngineEvents> events, Supplier<io.hikyaku.api.sse.MessageEncryption> encryption) {
        this.spec = spec;
        this.clock = clock;
        this.memory = new MemoryReport(log);
        StoreFence.Lane lane = fence.lane();
        String suffix = spec.count() == 1 ? "" : "-" + spec.index();
        this.commands = new CommandQueue(commandCapacity, "hikyaku-engine" + suffix);
        this.gate = new EngineGate(now -> {
            // a reloaded engine (after a storage failure) gets the same settings and event listener
            QueueEngine engine = new QueueEngine(lane, region, now, maxIndexedMessages, indexWindow, spec);
            engine.cooldowns(cooldowns);
            engine.setEvents(events.get());
            access.follow(engine);
            return engine;
        }, lane, clock, commands);
        this.gate.afterEachCall(engine -> {
            memory.check(engine, clock::millis);
            indexUsage = engine.indexUsage();
        });
        Ids ids = new Ids();
        this.timers = new TimerLoop(clock, this::awaitTimerRound, "hikyaku-timers" + suffix); // started by start()
        this.receiver = new Receiver(gate, ids, timers::deadlineAt, encryption);
        this.queues = new QueueActions(gate, receiver);
        this.messages = new MessageActions(gate, ids, receiver, encryption);
        this.moveTasks = new MoveTaskActions(gate, ids);
        this.peeks = new PeekActions(gate, encryption);
        this.gate.onDeadline(timers::deadlineAt);
        this.commands.afterBatch(this::afterBatch);
        this.commands.start();
        this.published = call(this::publish).join();
    }

    void start() {
        timers.start();
    }

    /**
     * Runs a task of the host on the applier; everything outside it that needs the engine goes
     * through here (a future, never a lock).
     */
    <T> CompletableFuture<T> call(Supplier<T> task) {
        return commands.call(() -> {
            dirty = true;
            return task.get();
        });
    }

    @Override
    public CompletableFuture<ObjectNode> submit(CallContext context, ApiRequest request, Input in) {
        CompletableFuture<ObjectNode> out = new CompletableFuture<>();
        long submitted = System.nanoTime();
        commands.submit(() -> {
            dirty = true;
            long started = System.nanoTime();
            CallStages.record(CallStages.Stage.QUEUED, started - submitted);
            run(context, request, in, out);
            long applied = System.nanoTime();
            CallStages.record(CallStages.Stage.APPLIED, applied - started);
            if ("ReceiveMessage".equals(request.action())) {
                return; // may wait for messages: the receiver measures its own wait (RECEIVED)
            }
            if (out.isDone()) {
                CallStages.record(CallStages.Stage.ANSWERED, 0);
            } else {
                out.whenComplete((v, e) -> CallStages.record(CallStages.Stage.ANSWERED, System.nanoTime() - applied));
            }
        });
        return out;
    }

    /**
     * Runs one call on the applier and passes its outcome to {@code out}, which fails with the
     * ApiException itself, never wrapped in a CompletionException (which dependent stages add), so
     * callers need not unwrap.
     */
    private void run(CallContext context, ApiRequest request, Input in, CompletableFuture<ObjectNode> out) {
        if (out.isDone()) {
            return; // the caller gave up while the call was queued
        }
        CompletableFuture<ObjectNode> result;
        try {
            result = dispatch(context, request, in);
        } catch (RuntimeException e) {
            ApiException error = EngineGate.asApiException(e);
            if (error.errorType().equals("InternalError")) {
                out.completeExceptionally(error); // outcome unknown (a bug): nothing earlier to wait for
            } else {
                gate.refuseAfterWrites(error, out);
            }
            return;
        } catch (Error e) {
            out.completeExceptionally(EngineGate.asApiException(e)); // the client is answered, then it propagates
            throw e;
        }
        result.whenComplete((value, failure) -> {
            if (failure == null) {
                out.complete(value);
            } else {
                out.completeExceptionally(EngineGate.asApiException(failure));
            }
        });
        // A caller that gives up (client gone) cancels: pass it on so a parked receive stops waiting.
        out.whenComplete((value, failure) -> {
            if (out.isCancelled()) {
                result.cancel(false);
            }
        });
    }

    @Override
    public CompletableFuture<Long> tick() {
        return call(this::timerRound);
    }

    @Override
    public CompletableFuture<Void> failWaiters(ApiException error) {
        return call(() -> {
            Completions completions = new Completions();
            receiver.failAll(error, completions);
            completions.run();
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> reload(long now) {
        return call(() -> {
            gate.reload(now);
            return null;
        });
    }

    @Override
    public ShardSnapshot snapshot() {
        return published;
    }

    @Override
    public CompletableFuture<ShardSnapshot> freshSnapshot() {
        return call(this::publish);
    }

    /** A snapshot taken now, bounded in wait: the latest published one if the applier is busy that long. */
    ShardSnapshot freshSnapshot(long waitMillis) {
        if (commands.onApplier()) {
            return publish();
        }
        try {
            return freshSnapshot().get(waitMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return published;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return published;
        }
    }

    /** Applier: publishes a new snapshot (fenced: keeps the last one, the engine may be half-changed). */
    private ShardSnapshot publish() {
        dirty = false;
        publishedAtNanos = System.nanoTime();
        if (gate.isFenced() && published != null) {
            return published;
        }
        QueueEngine engine = gate.engine();
        indexUsage = engine.indexUsage();
        ShardSnapshot next = new ShardSnapshot(engine.snapshot(), engine.moveTasks(), indexUsage,
                receiver.parkedCount());
        published = next;
        return next;
    }

    /** After each batch of the applier: publishes if tasks ran and the last publication is old enough; else says when. */
    private long afterBatch() {
        if (!dirty) {
            return Long.MAX_VALUE;
        }
        long sinceMs = (System.nanoTime() - publishedAtNanos) / 1_000_000;
        if (sinceMs < PUBLISH_EVERY_MS) {
            return PUBLISH_EVERY_MS - sinceMs;
        }
        publish();
        return Long.MAX_VALUE;
    }

    /** The timer thread's round: runs on the applier, waited for (the timer thread is no event loop). */
    private long awaitTimerRound() {
        try {
            return tick().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping
            return Long.MAX_VALUE;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("timer round failed", e.getCause());
        }
    }

    CompletableFuture<ObjectNode> dispatch(CallContext c, ApiRequest r, Input in) {
        String action = r.action() == null ? "" : r.action();
        if (isAccountLevelActionOnQueueUrl(r, action)) {
            throw Errors.invalidAction(action);
        }
        return switch (action) {
            case "CreateQueue" -> queues.createQueue(c, in);
            case "DeleteQueue" -> queues.deleteQueue(r, in);
            case "GetQueueUrl" -> queues.getQueueUrl(c, in);
            case "ListQueues" -> queues.listQueues(c, in);
            case "GetQueueAttributes" -> queues.getQueueAttributes(r, in);
            case "SetQueueAttributes" -> queues.setQueueAttributes(r, in);
            case "PurgeQueue" -> queues.purgeQueue(r, in);
            case "ListQueueTags" -> queues.listQueueTags(r, in);
            case "TagQueue" -> queues.tagQueue(r, in);
            case "UntagQueue" -> queues.untagQueue(r, in);
            case "AddPermission" -> queues.addPermission(r, in);
            case "RemovePermission" -> queues.removePermission(r, in);
            case "ListDeadLetterSourceQueues" -> queues.listDeadLetterSourceQueues(c, r, in);
            case "SendMessage" -> messages.sendMessage(c, r, in);
            case "SendMessageBatch" -> messages.sendMessageBatch(c, r, in);
            case "ReceiveMessage" -> receiver.receive(r, in);
            case "DeleteMessage" -> messages.deleteMessage(r, in);
            case "DeleteMessageBatch" -> messages.deleteMessageBatch(r, in);
            case "ChangeMessageVisibility" -> messages.changeMessageVisibility(r, in);
            case "ChangeMessageVisibilityBatch" -> messages.changeMessageVisibilityBatch(r, in);
            case "StartMessageMoveTask" -> moveTasks.start(in);
            case "ListMessageMoveTasks" -> moveTasks.list(in);
            case "CancelMessageMoveTask" -> moveTasks.cancel(in);
            case PeekActions.ACTION -> peeks.peek(r, in);
            default -> throw Errors.invalidAction(action);
        };
    }

    /**
     * Amazon SQS refuses account-level actions sent over Query to a queue URL (sqs-behaviours 71:
     * CreateQueue and ListQueues on a queue URL are InvalidAction). JSON requests may be POSTed to a
     * queue URL (behaviour 74), so only Query is checked.
     */
    private static boolean isAccountLevelActionOnQueueUrl(ApiRequest r, String action) {
        return r.protocol() == io.hikyaku.protocol.WireProtocol.QUERY
                && (action.equals("CreateQueue") || action.equals("ListQueues"))
                && QueueAddress.parsePath(r.path()).isPresent();
    }

    /** One timer round: due engine timers, woken long polls, expired waits; returns the next deadline. */
    private long timerRound() {
        if (gate.isFenced()) {
            return clock.millis() + 100; // nothing runs until the store has recovered (StoreRecovery)
        }
        Completions completions = new Completions();
        long[] next = new long[1];
        gate.step(() -> {
            QueueEngine engine = gate.engine();
            long now = gate.now();
            if (engine.nextDeadline() <= now) {
                Ticked ticked = gate.<Ticked>apply(new Command.Tick(now)).value();
                for (QueueRef queue : ticked.queuesWithNewVisibleMessages()) {
                    receiver.wake(queue, now, completions);
                }
            }
            receiver.expire(now, completions);
            next[0] = Math.min(engine.nextDeadline(), receiver.nextDeadline());
        });
        completions.run();
        return next[0];
    }
}
