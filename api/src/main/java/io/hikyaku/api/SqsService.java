package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiRequest;
import java.util.concurrent.CompletableFuture;

/**
 * The 23 SQS actions over the engine, protocol-neutral. The server decodes a request with the
 * protocol codec, calls {@link #invoke}, and encodes what the future yields.
 *
 * <p>The future completes with the action's result in AWS JSON 1.0 response shape (an empty object
 * for actions without output), or exceptionally with an {@link io.hikyaku.protocol.ApiException}
 * carrying the exact SQS error. It completes only once the change is durable. A long-polling
 * ReceiveMessage completes later, without holding a thread while it waits.
 */
public interface SqsService extends AutoCloseable {

    CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request);

    /**
     * Runs a request whose target the caller has already resolved ({@link SqsRequests#resolve}) and
     * authorized: the service acts on exactly that target and parses no address again.
     */
    default CompletableFuture<ObjectNode> invoke(CallContext context, ResolvedRequest request) {
        return invoke(context, request.request());
    }

    /**
     * A stop begins: every parked long poll is answered now (an empty receive, as when its wait ends),
     * and receives that arrive from now on answer at once instead of parking. Everything else keeps
     * working until {@link #close()}, so writes in flight finish. Returns how many polls were answered.
     */
    default int beginStop() {
        return 0;
    }

    /**
     * Starts the background timers (message timers, long-poll deadlines, page-ins and counting of
     * stored backlogs) of a service built with them held ({@link SqsServices}' server forms), which
     * the server does once it listens; again, or on a service whose timers run: nothing.
     */
    default void startTimers() {
    }

    /**
     * Stops every command now, as a failed store write does: each call gets 503 ServiceUnavailable,
     * parked long polls are answered 503, and the recovery then waits for the store's
     * {@link io.hikyaku.engine.store.Store#resume() resume} and reloads the state from the store before
     * commands pass again. A cluster node fences its service while it is not the ready leader
     * ({@code why} says so in the log). No-op when already fenced.
     *
     * @throws UnsupportedOperationException when this service cannot be fenced
     */
    default void fence(String why) {
        throw new UnsupportedOperationException("this service cannot be fenced");
    }

    /**
     * Whether commands pass now: false while {@link #fence fenced} or recovering (a cluster node until its
     * engine is reloaded as the ready leader). The services that write through the same store wait for it.
     */
    default boolean serving() {
        return true;
    }

    /**
     * Why calls are refused while the storage recovers (the failed write's error, or a bug's in
     * apply), or null while commands pass: {@code /health} shows it as "degraded". It is the fence's
     * own cause, the one record of a failure above the store; a deliberate {@link #fence} is no
     * storage problem (null).
     */
    default String storageProblem() {
        return null;
    }

    /**
     * Encrypts the message data of SSE queues from now on, and opens what was sealed
     * ({@link io.hikyaku.api.sse.MessageEncryption}); the server sets it once its key service runs.
     */
    default void messageEncryption(io.hikyaku.api.sse.MessageEncryption encryption) {
    }

    /** Stops timers and closes the store. */
    @Override
    void close();
}
