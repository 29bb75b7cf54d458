package io.hikyaku.scheduler;

/**
 * Where the firer reports what became of each invocation, by AWS/Scheduler's metric names, per account and
 * schedule group (CloudWatch's dimension ScheduleGroup). Called on the firer's thread: implementations are quick.
 */
public interface SchedulerMetrics {

    String INVOCATION_ATTEMPTS = "InvocationAttemptCount";
    String TARGET_ERRORS = "TargetErrorCount";
    String INVOCATIONS_DROPPED = "InvocationDroppedCount";
    String SENT_TO_DEAD_LETTER = "InvocationsSentToDeadLetterCount";
    String FAILED_TO_BE_SENT_TO_DEAD_LETTER = "InvocationsFailedToBeSentToDeadLetterCount";

    /** Every name the firer counts, in the order {@code /metrics} shows them. */
    java.util.List<String> NAMES = java.util.List.of(INVOCATION_ATTEMPTS, TARGET_ERRORS, INVOCATIONS_DROPPED,
            SENT_TO_DEAD_LETTER, FAILED_TO_BE_SENT_TO_DEAD_LETTER);

    SchedulerMetrics NONE = (account, group, metric) -> { };

    void count(String account, String group, String metric);
}
