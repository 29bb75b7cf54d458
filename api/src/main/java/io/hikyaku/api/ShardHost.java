package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.util.concurrent.CompletableFuture;

/**
 * One engine shard as the service drives it: a single applier thread owns the engine and runs
 * everything that touches it as a task (client calls, timer rounds, reloads, long-poll wake-ups and
 * expiries, snapshot publication), so there is no lock; readers get immutable {@link ShardSnapshot}s.
 * Every method may be called from any thread and never blocks; results come as futures, which never
 * complete on the store's WAL-sync thread. {@link Shard} implements it over one local engine, in cluster
 * mode too (the cluster replicates the store beneath it); a replicated implementation is not built.
 */
interface ShardHost {

    /**
     * A client call: runs on the applier in the order submitted; the future holds the answer once the
     * change is durable. Throws RequestThrottled when the applier's queue is full.
     */
    CompletableFuture<ObjectNode> submit(CallContext context, ApiRequest request, Input in);

    /** One timer round (due engine timers, woken long polls, expired waits); holds the next deadline. */
    CompletableFuture<Long> tick();

    /** Answers every parked long poll with {@code error} (the store failed: what they wait on may not be on disk). */
    CompletableFuture<Void> failWaiters(ApiException error);

    /** Replaces the engine by one loaded from the store as of {@code now} (recovery, after a failure). */
    CompletableFuture<Void> reload(long now);

    /** The latest snapshot the applier published (at most {@link Shard#PUBLISH_EVERY_MS} old while it works). */
    ShardSnapshot snapshot();

    /** A snapshot the applier takes after every task handed to it before this call (fenced: the latest published one). */
    CompletableFuture<ShardSnapshot> freshSnapshot();
}
