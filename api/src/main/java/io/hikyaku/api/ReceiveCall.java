package io.hikyaku.api;

/**
 * The parsed parameters of one ReceiveMessage, kept while it is parked and retried. The receipt
 * nonce is drawn once, before the first attempt; only the attempt that returns messages uses it. The caller
 * is who opens sealed messages (SSE-KMS checks its kms:Decrypt).
 */
record ReceiveCall(int maxMessages, Integer visibilityTimeout, String receiveRequestAttemptId,
                   ReceiveSelection selection, long nonce, CallContext caller) {

    /** A call whose caller does not matter (tests): the opening of sealed messages checks no KMS permission. */
    ReceiveCall(int maxMessages, Integer visibilityTimeout, String receiveRequestAttemptId, ReceiveSelection selection,
                long nonce) {
        this(maxMessages, visibilityTimeout, receiveRequestAttemptId, selection, nonce, null);
    }
}
