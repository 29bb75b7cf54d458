package io.hikyaku.push;

/**
 * Per-mapping counters for a metrics exporter to read (cumulative counters only grow; gauges are the
 * value now). One instance per mapping, for as long as the mapping exists.
 */
public interface MappingMetrics {

    String uuid();

    String functionName();

    String eventSourceArn();

    /** Calls made to the function. */
    long invocations();

    /** Calls that failed as a whole: non-2xx, timeout, connection error, unreadable batch response. */
    long errors();

    /** Messages whose processing the function reported failed through batchItemFailures. */
    long itemFailures();

    /** Messages sent to the function (the sum of all batch sizes). */
    long messagesDelivered();

    /** Messages deleted because no filter matched them. */
    long messagesFiltered();

    /** Messages deleted after the function processed them. */
    long messagesDeleted();

    /** Size of the largest batch so far. */
    int maxBatchSize();

    /** Size of the latest batch. */
    int lastBatchSize();

    /** Invocations in flight now. */
    int concurrency();

    /** Pollers running now (scales with the backlog between 1 and the mapping's MaximumConcurrency). */
    int pollers();

    /** Age in milliseconds of the oldest message in the latest batch, when it was sent to the function. */
    long oldestMessageAgeMillis();
}
