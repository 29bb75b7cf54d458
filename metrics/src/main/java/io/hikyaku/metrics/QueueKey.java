package io.hikyaku.metrics;

/**
 * A queue as metrics label it: its account and name (CloudWatch's QueueName dimension, per account).
 * The queue is the one the request was resolved to act on ({@link io.hikyaku.api.SqsRequests}); metrics
 * never parse an address themselves, so every addressing form counts, with the same queue.
 */
public record QueueKey(String accountId, String name) {
}
