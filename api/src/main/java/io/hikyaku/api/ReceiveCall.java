package io.hikyaku.api;

/** The parsed parameters of one ReceiveMessage, kept while it is parked and retried. */
record ReceiveCall(int maxMessages, Integer visibilityTimeout, String receiveRequestAttemptId,
                   ReceiveSelection selection) {}
