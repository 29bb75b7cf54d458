package io.hikyaku.engine;

/**
 * ReceiveMessage. {@code maxMessages} 1..10 (the api validates); {@code visibilityTimeout} null =
 * queue default; {@code receiveRequestAttemptId} FIFO only, may be null; {@code nonce} a random
 * value from the caller that makes this receive's receipt handles unguessable.
 */
public record ReceiveMessages(int maxMessages, Integer visibilityTimeout, String receiveRequestAttemptId,
                              long nonce, long now) {}
