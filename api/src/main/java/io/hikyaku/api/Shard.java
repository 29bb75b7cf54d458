package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.Ticked;
import io.hikyaku.engine.command.Command;
import io.hikyaku.protocol.ApiRequest;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One engine shard at work: its engine behind its own gate (lock and sequence of time), its own
 * engine thread and command queue, timer thread, long polls and the actions that drive them. Shards
 * share only the store and its fence; a request reaches exactly one of them (the account of its {@link ResolvedRequest}).
 */
final class Shard {

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
    /** The engine's memory use as of its last call (metrics read it without the engine lock). */
    volatile io.hikyaku.engine.IndexUsage indexUsage;
    /** Its queues' Policy and tags, for authorization without the engine lock; follows each (re)loaded engine. */
    final AccessSnapshots access = new AccessSnapshots();

    /**
     * {@code maxIndexedMessages} is this shard's part of the index budget; {@code events} gives the
     * listener a (re)loaded engine gets.
     */
    Shard(EngineShard spec, StoreFence fence, Clock clock, String region, int commandCapacity, boolean cooldowns,
          long maxIndexedMessages, long indexWindow, Consumer<String> log,
          Supplier<io.hikyaku.engine.EngineEvents> events) {
        this.spec = spec;
        this.clock = clock;
        this.memory = new MemoryReport(log);
        StoreFence.Lane lane = fence.lane();
        this.gate = new EngineGate(now -> {
            // a reloaded engine (after a storage failure) gets the same settings and event listener
            QueueEngine engine = new QueueEngine(lane, region, now, maxIndexedMessages, indexWindow, spec);
            engine.cooldowns(cooldowns);
            engine.setEvents(events.get());
            access.follow(engine);
            return engine;
        }, lane, clock);
        this.gate.afterEachCall(engine -> {
            memory.check(engine, clock::millis);
            indexUsage = engine.indexUsage();
        });
        this.gate.locked(() -> indexUsage = gate.engineUnderLock().indexUsage());
        Ids ids = new Ids();
        String suffix = spec.count() == 1 ? "" : "-" + spec.index();
        this.timers = new TimerLoop(clock, this::timerRound, "hikyaku-timers" + suffix); // started by start()
        this.receiver = new Receiver(gate, ids, timers::deadlineAt);
        this.queues = new QueueActions(gate, receiver);
        this.messages = new MessageActions(gate, ids, receiver);
        this.moveTasks = new MoveTaskActions(gate, ids);
        this.commands = new CommandQueue(commandCapacity, "hikyaku-engine" + suffix);
        this.peeks = new PeekActions(gate);
        this.gate.onDeadline(timers::deadlineAt);
    }

    void start() {
        timers.start();
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
}
