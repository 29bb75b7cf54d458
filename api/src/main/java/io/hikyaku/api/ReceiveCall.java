package io.hikyaku.api;

/**
 * The parsed parameters of one ReceiveMessage, kept while it is parked and retried. The receipt
 * nonce is drawn once, outside the engine lock; only the attempt that returns messages uses it.
 */
record ReceiveCall(int maxMessages, Integer visibilityTimeout, String receiveRequestAttemptId,
                   ReceiveSelection selection, long nonce) {}
