package io.hikyaku.scheduler;

/**
 * What CreateSchedule and UpdateSchedule ask of a target queue: whether a FIFO queue has content-based
 * deduplication, which a FIFO target needs (as at AWS: the Scheduler sends no deduplication id).
 */
public interface TargetQueues {

    /** Nothing known of any queue: every target passes (unit tests of the API alone). */
    TargetQueues UNKNOWN = queueArn -> null;

    /** The queue's {@code ContentBasedDeduplication}, or null when the queue does not exist or cannot be read now. */
    Boolean contentBasedDeduplication(String queueArn);
}
