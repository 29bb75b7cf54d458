package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.store.Store;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The SqsService: routes each call to the engine shard that owns its account (the resolved request's account, {@link ResolvedRequest};
 * one shard unless the server runs several), which dispatches the 23 actions and drives its timers
 * and long-poll deadlines. Shards share the store and one {@link StoreFence}: a failed write stops
 * every shard until {@link StoreRecovery} has reloaded them all.
 */
final class DefaultSqsService implements SqsService, ServiceView {

    static final String DEFAULT_REGION = "us-east-1";

    private final Store store;
    private final Shard[] shards;
    private final StoreRecovery recovery;
    private final StoreFence fence;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Where the engine's events go (metrics); kept here so an engine reloaded after a storage failure gets them too. */
    private volatile io.hikyaku.engine.EngineEvents events = io.hikyaku.engine.EngineEvents.NONE;
    /** Encryption at rest of message data (off until the server hands over the key service). */
    private volatile io.hikyaku.api.sse.MessageEncryption encryption = io.hikyaku.api.sse.MessageEncryption.off();

    DefaultSqsService(Store store, Clock clock) {
        this(store, clock, CommandQueue.CAPACITY);
    }

    /** {@code cooldowns} false: no 60-second waits (the server's {@code --cooldowns off}). */
    DefaultSqsService(Store store, Clock clock, boolean cooldowns) {
        this(store, clock, CommandQueue.CAPACITY, cooldowns, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW, line -> { }, 1);
    }

    /** With another command queue capacity (tests). */
    DefaultSqsService(Store store, Clock clock, int commandCapacity) {
        this(store, clock, commandCapacity, true, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW, line -> { }, 1);
    }

    /**
     * With an index budget of {@code maxIndexedMessages} (the server's {@code --max-indexed-messages});
     * {@code log} receives the memory report's lines.
     */
    DefaultSqsService(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                      java.util.function.Consumer<String> log) {
        this(store, clock, CommandQueue.CAPACITY, cooldowns, maxIndexedMessages, QueueEngine.DEFAULT_INDEX_WINDOW, log, 1);
    }

    /** And with a per-queue index window of {@code indexWindow} visible messages (the server's {@code --index-window}). */
    DefaultSqsService(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages, long indexWindow,
                      java.util.function.Consumer<String> log) {
        this(store, clock, CommandQueue.CAPACITY, cooldowns, maxIndexedMessages, indexWindow, log, 1);
    }

    /**
     * With {@code shardCount} engine shards (the server's {@code --engine-shards}); each gets an
     * equal part of the index budget and a command queue of {@code commandCapacity}.
     */
    DefaultSqsService(Store store, Clock clock, int commandCapacity, boolean cooldowns, long maxIndexedMessages,
                      long indexWindow, java.util.function.Consumer<String> log, int shardCount) {
        this(store, clock, commandCapacity, cooldowns, maxIndexedMessages, indexWindow, log, shardCount, false);
    }

    /**
     * As above; with {@code holdTimers} the timers wait for {@link #startTimers()}: the server's
     * start-up then does not share its two cores with a stored backlog's page-ins and counting.
     */
    DefaultSqsService(Store store, Clock clock, int commandCapacity, boolean cooldowns, long maxIndexedMessages,
                      long indexWindow, java.util.function.Consumer<String> log, int shardCount, boolean holdTimers) {
        this.store = store;
        this.recovery = new StoreRecovery(clock);
        this.fence = new StoreFence(store, recovery::start);
        long budget = maxIndexedMessages == Long.MAX_VALUE ? Long.MAX_VALUE
                : Math.max(1, maxIndexedMessages / shardCount);
        this.shards = new Shard[shardCount];
        for (int i = 0; i < shardCount; i++) {
            shards[i] = new Shard(new EngineShard(i, shardCount), fence, clock, DEFAULT_REGION, commandCapacity,
                    cooldowns, budget, indexWindow, log, () -> events, () -> encryption);
        }
        this.recovery.attach(java.util.List.of(shards), fence);
        if (!holdTimers) {
            startTimers(); // timers last, once everything exists
        }
    }

    @Override
    public void startTimers() {
        for (Shard shard : shards) {
            shard.start();
        }
    }

    /**
     * Hands the call to its shard's applier thread and returns at once: the caller (an event loop)
     * never waits for the engine or a store read. A full command queue answers RequestThrottled.
     */
    @Override
    public CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request) {
        ResolvedRequest resolved;
        try {
            resolved = SqsRequests.resolve(request, context);
        } catch (ApiException notInTable) {
            return CompletableFuture.failedFuture(notInTable);
        }
        return invoke(context, resolved);
    }

    @Override
    public CompletableFuture<ObjectNode> invoke(CallContext context, ResolvedRequest resolved) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new ApiException("ServiceUnavailable", "The service is shutting down."));
        }
        ApiRequest request = resolved.request();
        Input in = new Input(resolved, context);
        String account = resolved.account() != null ? resolved.account() : context == null ? "" : context.accountId();
        Shard shard = shards[shards.length == 1 ? 0 : EngineShard.of(account == null ? "" : account, shards.length)];
        try {
            return shard.submit(context, request, in);
        } catch (ApiException throttled) {
            return CompletableFuture.failedFuture(closed.get() // closed between the check and the hand-over
                    ? new ApiException("ServiceUnavailable", "The service is shutting down.") : throttled);
        }
    }

    /** How long a reader waits for a fresh snapshot before it takes the latest published one. */
    private static final long FRESH_WAIT_MS = 2_000;

    @Override
    public java.util.List<io.hikyaku.engine.QueueSnapshot> queueSnapshots() {
        java.util.List<io.hikyaku.engine.QueueSnapshot> all = new java.util.ArrayList<>();
        for (Shard shard : shards) {
            all.addAll(shard.freshSnapshot(FRESH_WAIT_MS).queues());
        }
        return all;
    }

    /** Read without reaching the engine, from the owning shard's snapshots ({@link AccessSnapshots}). */
    @Override
    public io.hikyaku.engine.QueueAccess queueAccess(String accountId, String name) {
        return shards[EngineShard.of(accountId, shards.length)].access.get(accountId, name);
    }

    @Override
    public java.util.List<io.hikyaku.engine.MoveTaskInfo> moveTasks() {
        java.util.List<io.hikyaku.engine.MoveTaskInfo> all = new java.util.ArrayList<>();
        for (Shard shard : shards) {
            all.addAll(shard.freshSnapshot(FRESH_WAIT_MS).moveTasks());
        }
        return all;
    }

    @Override
    public void messageEncryption(io.hikyaku.api.sse.MessageEncryption encryption) {
        this.encryption = encryption;
    }

    @Override
    public void setEngineEvents(io.hikyaku.engine.EngineEvents events) {
        this.events = events; // before the tasks: a reload after them reads it, one before is replaced by them
        for (Shard shard : shards) {
            shard.call(() -> {
                shard.gate.engine().setEvents(events);
                return null;
            }).join();
        }
    }

    /** Every shard's index budget and use, summed (each as of its last call, published by its applier). */
    @Override
    public io.hikyaku.engine.IndexUsage indexUsage() {
        if (shards.length == 1) {
            return shards[0].indexUsage;
        }
        long budget = 0;
        long indexed = 0;
        long spilled = 0;
        long dedup = 0;
        for (Shard shard : shards) {
            io.hikyaku.engine.IndexUsage u = shard.indexUsage;
            if (u == null) {
                return null;
            }
            budget = u.budget() == Long.MAX_VALUE || budget == Long.MAX_VALUE ? Long.MAX_VALUE : budget + u.budget();
            indexed += u.indexedMessages();
            spilled += u.spilledMessages();
            dedup += u.dedupEntries();
        }
        return new io.hikyaku.engine.IndexUsage(budget, indexed, spilled, dedup);
    }

    /** Tests: shard {@code index} (its gate, applier and receiver). */
    Shard shard(int index) {
        return shards[index];
    }

    /** Tests: runs {@code hook} after every command each shard's engine applies (see {@link EngineGate#afterApply}). */
    void afterApply(EngineGate.AfterApply hook) {
        for (Shard shard : shards) {
            shard.call(() -> {
                shard.gate.afterApply(hook);
                return null;
            }).join();
        }
    }

    /** Tests: engines loaded so far over every shard (one each at start, one more per reload). */
    int engineLoads() {
        int n = 0;
        for (Shard shard : shards) {
            n += shard.gate.loads();
        }
        return n;
    }

    /** Returns once every call invoked before this one has run on its engine thread (tests). */
    void awaitInvoked() {
        for (Shard shard : shards) {
            shard.commands.awaitQueued();
        }
    }

    /** Parked long polls right now (for tests and metrics). */
    @Override
    public int parkedReceives() {
        int n = 0;
        for (Shard shard : shards) {
            n += shard.freshSnapshot(FRESH_WAIT_MS).parkedReceives();
        }
        return n;
    }

    @Override
    public void fence(String why) {
        fence.fence(new StoreRecovery.Fenced(why));
    }

    @Override
    public boolean serving() {
        return fence.fenced() == null;
    }

    @Override
    public String storageProblem() {
        io.hikyaku.engine.store.StoreException cause = fence.fenced();
        if (cause == null || cause instanceof StoreRecovery.Fenced) {
            return null;
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    @Override
    public int beginStop() {
        int answered = 0;
        for (Shard shard : shards) {
            answered += shard.call(() -> {
                Completions completions = new Completions();
                int n = shard.receiver.stopWaiting(completions);
                completions.run();
                return n;
            }).join();
        }
        return answered;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Shard shard : shards) {
            shard.timers.stop();
        }
        recovery.stop();
        for (Shard shard : shards) {
            // commands already handed over still run; then the waiters are released and the final
            // state goes to the sink, after the last command (the journal records its digest)
            shard.commands.close(() -> {
                Completions completions = new Completions();
                shard.receiver.releaseAll(completions);
                completions.run();
                shard.gate.stopSink();
            });
        }
        store.close();
        fence.close(); // the answers to the store's last writes are given
    }

    /**
     * Every command applied from now on goes to {@code sink} as well (the journal); set before
     * serving. One sink records one engine's commands: with several shards, see {@link #commandSinks}.
     */
    void commandSink(io.hikyaku.engine.command.CommandSink sink) {
        commandSinks(java.util.List.of(sink));
    }

    /**
     * Every command shard i applies from now on goes to {@code sinks.get(i)} (each shard's journal),
     * told on that shard's applier only; set before serving.
     */
    void commandSinks(java.util.List<io.hikyaku.engine.command.CommandSink> sinks) {
        if (sinks.size() != shards.length) {
            throw new IllegalStateException(sinks.size() + " command sinks for " + shards.length + " engine shards");
        }
        for (int i = 0; i < shards.length; i++) {
            Shard shard = shards[i];
            io.hikyaku.engine.command.CommandSink sink = sinks.get(i);
            shard.call(() -> {
                shard.gate.sink(sink);
                return null;
            }).join();
        }
    }
}
