package io.hikyaku.bench.client;

/**
 * Gets the outcome of one SqsConnection.send on the connection's I/O thread: a plain callback
 * rather than a CompletableFuture chain, since every virtual user is already a state machine.
 */
@FunctionalInterface
public interface ReplyHandler {
    /**
     * error is null for a 200; else a SqsCallException (reply is then the parsed error answer) or
     * the transport failure (reply is then null).
     */
    void onReply(SqsReply reply, Throwable error);
}
