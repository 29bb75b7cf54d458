package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.Ticked;
import io.hikyaku.engine.store.Store;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** The SqsService: dispatches the 23 actions and drives engine timers and long-poll deadlines. */
final class DefaultSqsService implements SqsService, ServiceView {

    static final String DEFAULT_REGION = "us-east-1";

    private final Store store;
    private final Clock clock;
    private final EngineGate gate;
    private final Receiver receiver;
    private final QueueActions queues;
    private final MessageActions messages;
    private final MoveTaskActions moveTasks;
    private final PeekActions peeks;
    private final TimerLoop timers;
    private final CommandQueue commands;
    private final StoreRecovery recovery;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final MemoryReport memory;
    /** Where the engine's events go (metrics); kept here so an engine reloaded after a storage failure gets them too. */
    private volatile io.hikyaku.engine.EngineEvents events = io.hikyaku.engine.EngineEvents.NONE;
    /** The engine's memory use as of its last call (metrics read it without the engine lock). */
    private volatile io.hikyaku.engine.IndexUsage indexUsage;
    /** Every queue's Policy and tags, for authorization without the engine lock; follows each (re)loaded engine. */
    private final AccessSnapshots access = new AccessSnapshots();

    DefaultSqsService(Store store, Clock clock) {
        this(store, clock, CommandQueue.CAPACITY);
    }

    /** {@code cooldowns} false: no 60-second waits (the server's {@code --cooldowns off}). */
    DefaultSqsService(Store store, Clock clock, boolean cooldowns) {
        this(store, clock, CommandQueue.CAPACITY, cooldowns, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW, line -> { });
    }

    /** With another command queue capacity (tests). */
    DefaultSqsService(Store store, Clock clock, int commandCapacity) {
        this(store, clock, commandCapacity, true, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW, line -> { });
    }

    /**
     * With an index budget of {@code maxIndexedMessages} (the server's {@code --max-indexed-messages});
     * {@code log} receives the memory report's lines.
     */
    DefaultSqsService(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                      java.util.function.Consumer<String> log) {
        this(store, clock, CommandQueue.CAPACITY, cooldowns, maxIndexedMessages, QueueEngine.DEFAULT_INDEX_WINDOW, log);
    }

    /** And with a per-queue index window of {@code indexWindow} visible messages (the server's {@code --index-window}). */
    DefaultSqsService(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages, long indexWindow,
                      java.util.function.Consumer<String> log) {
        this(store, clock, CommandQueue.CAPACITY, cooldowns, maxIndexedMessages, indexWindow, log);
    }

    private DefaultSqsService(Store store, Clock clock, int commandCapacity, boolean cooldowns,
                              long maxIndexedMessages, long indexWindow, java.util.function.Consumer<String> log) {
        this.store = store;
        this.clock = clock;
        this.recovery = new StoreRecovery(clock);
        this.memory = new MemoryReport(log);
        StoreFence fence = new StoreFence(store, recovery::start);
        this.gate = new EngineGate(now -> {
            // a reloaded engine (after a storage failure) gets the same settings and event listener
            QueueEngine engine = new QueueEngine(fence, DEFAULT_REGION, now, maxIndexedMessages, indexWindow);
            engine.cooldowns(cooldowns);
            engine.setEvents(events);
            access.follow(engine);
            return engine;
        }, fence, clock);
        this.gate.afterEachCall(engine -> {
            memory.check(engine, clock::millis);
            indexUsage = engine.indexUsage();
        });
        this.gate.locked(() -> indexUsage = gate.engineUnderLock().indexUsage());
        Ids ids = new Ids();
        this.timers = new TimerLoop(clock, this::timerRound); // started last, once everything exists
        this.receiver = new Receiver(gate, ids, timers::deadlineAt);
        this.recovery.attach(gate, fence, receiver);
        this.queues = new QueueActions(gate, receiver);
        this.messages = new MessageActions(gate, ids, receiver);
        this.moveTasks = new MoveTaskActions(gate, ids);
        this.commands = new CommandQueue(commandCapacity);
        this.peeks = new PeekActions(gate);
        this.gate.onDeadline(timers::deadlineAt);
        this.timers.start();
    }

    /**
     * Hands the call to the engine thread and returns at once: the caller (an event loop) never
     * waits for the engine lock or a store read. A full command queue answers RequestThrottled.
     */
    @Override
    public CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new ApiException("ServiceUnavailable", "The service is shutting down."));
        }
        CompletableFuture<ObjectNode> out = new CompletableFuture<>();
        try {
            commands.submit(() -> run(context, request, out));
        } catch (ApiException throttled) {
            return CompletableFuture.failedFuture(closed.get() // closed between the check and the hand-over
                    ? new ApiException("ServiceUnavailable", "The service is shutting down.") : throttled);
        }
        return out;
    }

    /**
     * Runs one call on the engine thread and passes its outcome to {@code out}, which fails with the
     * ApiException itself, never wrapped in a CompletionException (which dependent stages add), so
     * callers need not unwrap.
     */
    private void run(CallContext context, ApiRequest request, CompletableFuture<ObjectNode> out) {
        if (out.isDone()) {
            return; // the caller gave up while the call was queued
        }
        CompletableFuture<ObjectNode> result;
        try {
            result = dispatch(context, request, new Input(request.input(), request.protocol(), context));
        } catch (RuntimeException e) {
            gate.refuseAfterWrites(EngineGate.asApiException(e), out);
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

    private CompletableFuture<ObjectNode> dispatch(CallContext c, ApiRequest r, Input in) {
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
                && QueueUrls.parsePath(r.path()).isPresent();
    }

    /** One timer round: due engine timers, woken long polls, expired waits; returns the next deadline. */
    private long timerRound() {
        if (gate.isFenced()) {
            return clock.millis() + 100; // nothing runs until the store has recovered (StoreRecovery)
        }
        Completions completions = new Completions();
        long[] next = new long[1];
        gate.locked(() -> {
            QueueEngine engine = gate.engineUnderLock();
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

    @Override
    public java.util.List<io.hikyaku.engine.QueueSnapshot> queueSnapshots() {
        return gate.read((engine, now) -> engine.snapshot());
    }

    @Override
    public io.hikyaku.engine.QueueAccess queueAccess(String accountId, String name) {
        return access.get(accountId, name);
    }

    @Override
    public java.util.List<io.hikyaku.engine.MoveTaskInfo> moveTasks() {
        return gate.read((engine, now) -> engine.moveTasks());
    }

    @Override
    public void setEngineEvents(io.hikyaku.engine.EngineEvents events) {
        gate.locked(() -> {
            this.events = events; // under the lock: a reload in between cannot miss it
            gate.engineUnderLock().setEvents(events);
        });
    }

    @Override
    public io.hikyaku.engine.IndexUsage indexUsage() {
        return indexUsage;
    }

    /** Returns once every call invoked before this one has run on the engine thread (tests). */
    void awaitInvoked() {
        commands.awaitQueued();
    }

    /** Parked long polls right now (for tests and metrics). */
    @Override
    public int parkedReceives() {
        int[] n = new int[1];
        gate.lockedEvenIfFenced(() -> n[0] = receiver.parkedCount());
        return n[0];
    }

    @Override
    public int beginStop() {
        Completions completions = new Completions();
        int[] answered = new int[1];
        gate.locked(() -> answered[0] = receiver.stopWaiting(completions));
        completions.run();
        return answered[0];
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        commands.close(); // commands already handed over still run
        timers.stop();
        recovery.stop();
        Completions completions = new Completions();
        gate.lockedEvenIfFenced(() -> receiver.releaseAll(completions));
        completions.run();
        gate.stopSink(); // the final state, after the last command (the journal records its digest)
        store.close();
    }

    /** Every command applied from now on goes to {@code sink} as well (the journal); set before serving. */
    void commandSink(io.hikyaku.engine.command.CommandSink sink) {
        gate.sink(sink);
    }
}
