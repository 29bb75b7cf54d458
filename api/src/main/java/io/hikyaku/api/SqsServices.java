package io.hikyaku.api;

import io.hikyaku.engine.store.Store;
import java.time.Clock;
import java.util.function.Consumer;

/** Builds the SQS service over a store. The clock is the only time source (tests pass a fake one). */
public final class SqsServices {

    /** The region the engine puts in ARNs when a command names none (a journal replay needs it). */
    public static final String ENGINE_REGION = DefaultSqsService.DEFAULT_REGION;

    private SqsServices() {}

    /**
     * A ready service: state is loaded from {@code store}; timers (visibility, delays, retention,
     * long-poll deadlines) run on one internal scheduler thread that {@link SqsService#close()} stops.
     */
    public static SqsService create(Store store, Clock clock) {
        return new DefaultSqsService(store, clock, true);
    }

    /**
     * The same; {@code cooldowns} false drops Amazon SQS's 60-second waits (after PurgeQueue, before a
     * deleted queue's name is free, while a DeduplicationScope change propagates): a deviation from
     * SQS for test suites.
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns) {
        return new DefaultSqsService(store, clock, cooldowns);
    }

    /**
     * As {@link #create(Store, Clock, boolean)}, with an index budget: at most {@code maxIndexedMessages}
     * messages (plus FIFO deduplication entries) in memory; past it messages stay on disk and are
     * paged in as queues drain, and sends the budget cannot take are refused with RequestThrottled.
     * {@code log} receives a line (at most once a minute) when that starts to happen.
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                                    Consumer<String> log) {
        return new DefaultSqsService(store, clock, cooldowns, maxIndexedMessages, log);
    }

    /**
     * As {@link #create(Store, Clock, boolean, long, Consumer)}; every command the service applies
     * also goes to {@code sink}, in apply order (the server's {@code --journal}).
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                                    Consumer<String> log, io.hikyaku.engine.command.CommandSink sink) {
        DefaultSqsService service = new DefaultSqsService(store, clock, cooldowns, maxIndexedMessages, log);
        service.commandSink(sink);
        return service;
    }

    /**
     * As {@link #create(Store, Clock, boolean, long, Consumer, io.hikyaku.engine.command.CommandSink)},
     * with a per-queue index window: a queue keeps at most {@code indexWindow} visible messages in
     * memory, the rest of its backlog stays in the store (the server's {@code --index-window}).
     * {@code sink} may be {@code CommandSink.NONE}.
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                                    long indexWindow, Consumer<String> log, io.hikyaku.engine.command.CommandSink sink) {
        DefaultSqsService service = new DefaultSqsService(store, clock, cooldowns, maxIndexedMessages, indexWindow, log);
        service.commandSink(sink);
        return service;
    }

    /**
     * As {@link #create(Store, Clock, boolean, long, long, Consumer, io.hikyaku.engine.command.CommandSink)}
     * with {@code engineShards} engines side by side over the store, each owning the accounts that hash
     * to it ({@link io.hikyaku.engine.EngineShard}): commands of different shards run in parallel, each
     * shard on its own thread and lock. The index budget is shared out equally. A {@code sink} other
     * than {@code CommandSink.NONE} needs one shard (several: one sink per shard, the next form).
     * The server's form: the timers wait for {@link SqsService#startTimers()}, which the server calls
     * once it listens, so a stored backlog's page-ins and counting do not slow its start.
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                                    long indexWindow, Consumer<String> log, io.hikyaku.engine.command.CommandSink sink,
                                    int engineShards) {
        DefaultSqsService service = new DefaultSqsService(store, clock, CommandQueue.CAPACITY, cooldowns,
                maxIndexedMessages, indexWindow, log, engineShards, true);
        if (sink != io.hikyaku.engine.command.CommandSink.NONE) {
            service.commandSink(sink);
        }
        return service;
    }

    /**
     * As {@link #create(Store, Clock, boolean, long, long, Consumer, io.hikyaku.engine.command.CommandSink, int)}
     * with one sink per engine shard: shard i's commands go to {@code sinks.get(i)} only, under that
     * shard's lock (each shard's journal). {@code sinks} has {@code engineShards} entries. The timers
     * wait for {@link SqsService#startTimers()}, as in the previous form.
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns, long maxIndexedMessages,
                                    long indexWindow, Consumer<String> log,
                                    java.util.List<io.hikyaku.engine.command.CommandSink> sinks, int engineShards) {
        if (sinks.size() != engineShards) {
            throw new IllegalArgumentException(sinks.size() + " command sinks for " + engineShards + " engine shards");
        }
        DefaultSqsService service = new DefaultSqsService(store, clock, CommandQueue.CAPACITY, cooldowns,
                maxIndexedMessages, indexWindow, log, engineShards, true);
        service.commandSinks(sinks);
        return service;
    }
}
