package io.hikyaku.metrics;

import io.micrometer.core.instrument.Tags;

/**
 * Meter names (Micrometer's dotted form; Prometheus text replaces dots with underscores and adds
 * {@code _total} to counters and the base unit to others). docs/operations.md "Monitoring" lists the
 * exposed names.
 */
final class MetricNames {

    private MetricNames() {}

    // ---- per queue, CloudWatch's AWS/SQS metrics ----
    static final String AGE_OF_OLDEST = "hikyaku.sqs.approximate.age.of.oldest.message";
    static final String DELAYED = "hikyaku.sqs.approximate.number.of.messages.delayed";
    static final String NOT_VISIBLE = "hikyaku.sqs.approximate.number.of.messages.not.visible";
    static final String VISIBLE = "hikyaku.sqs.approximate.number.of.messages.visible";
    static final String GROUPS_WITH_INFLIGHT = "hikyaku.sqs.approximate.number.of.groups.with.inflight.messages";
    static final String EMPTY_RECEIVES = "hikyaku.sqs.number.of.empty.receives";
    static final String MESSAGES_DELETED = "hikyaku.sqs.number.of.messages.deleted";
    static final String MESSAGES_RECEIVED = "hikyaku.sqs.number.of.messages.received";
    static final String MESSAGES_SENT = "hikyaku.sqs.number.of.messages.sent";
    static final String SENT_MESSAGE_SIZE = "hikyaku.sqs.sent.message.size";
    static final String DEDUPLICATED = "hikyaku.sqs.number.of.deduplicated.sent.messages";

    // ---- per queue, beyond CloudWatch ----
    static final String ACTIVE_CONSUMERS = "hikyaku.sqs.active.consumers";
    static final String BACKLOG_PER_CONSUMER = "hikyaku.sqs.backlog.per.active.consumer";
    static final String MOVED_TO_DLQ = "hikyaku.sqs.messages.moved.to.dead.letter.queue";
    static final String MOVED_BY_TASK = "hikyaku.sqs.messages.moved.by.task";
    static final String MOVE_TASK_MOVED = "hikyaku.sqs.move.task.messages.moved";
    static final String MOVE_TASK_TO_MOVE = "hikyaku.sqs.move.task.messages.to.move";
    static final String QUEUES = "hikyaku.sqs.queues";
    static final String SENDS_REFUSED_FOR_MEMORY = "hikyaku.sqs.sends.refused.for.memory";

    // ---- the engine's index budget ----
    static final String INDEX_BUDGET = "hikyaku.index.budget";
    static final String INDEXED_MESSAGES = "hikyaku.index.messages";
    static final String SPILLED_MESSAGES = "hikyaku.index.spilled.messages";
    static final String DEDUP_ENTRIES = "hikyaku.index.dedup.entries";

    // ---- server ----
    static final String REQUESTS = "hikyaku.requests";
    static final String REQUEST_DURATION = "hikyaku.request.duration";
    static final String REQUEST_ERRORS = "hikyaku.request.errors";
    static final String PARKED_LONG_POLLS = "hikyaku.long.polls.parked";

    static Tags queueTags(QueueKey queue) {
        return Tags.of("account", queue.accountId(), "queue", queue.name());
    }
}
