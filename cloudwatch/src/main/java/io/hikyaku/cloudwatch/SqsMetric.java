package io.hikyaku.cloudwatch;

/**
 * The AWS/SQS metrics CloudWatch publishes per queue (dimension QueueName), as this server keeps them:
 * gauges are sampled once a minute (one sample per minute), counters are the minute's count (one
 * sample per minute, zero included), SentMessageSize has one sample per message sent in the minute.
 */
enum SqsMetric {
    APPROXIMATE_AGE_OF_OLDEST_MESSAGE("ApproximateAgeOfOldestMessage", Kind.GAUGE, "Seconds", false),
    APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED("ApproximateNumberOfMessagesDelayed", Kind.GAUGE, "Count", false),
    APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE("ApproximateNumberOfMessagesNotVisible", Kind.GAUGE, "Count", false),
    APPROXIMATE_NUMBER_OF_MESSAGES_VISIBLE("ApproximateNumberOfMessagesVisible", Kind.GAUGE, "Count", false),
    APPROXIMATE_NUMBER_OF_GROUPS_WITH_INFLIGHT_MESSAGES("ApproximateNumberOfGroupsWithInflightMessages", Kind.GAUGE, "Count", true),
    NUMBER_OF_EMPTY_RECEIVES("NumberOfEmptyReceives", Kind.COUNTER, "Count", false),
    NUMBER_OF_MESSAGES_DELETED("NumberOfMessagesDeleted", Kind.COUNTER, "Count", false),
    NUMBER_OF_MESSAGES_RECEIVED("NumberOfMessagesReceived", Kind.COUNTER, "Count", false),
    NUMBER_OF_MESSAGES_SENT("NumberOfMessagesSent", Kind.COUNTER, "Count", false),
    NUMBER_OF_DEDUPLICATED_SENT_MESSAGES("NumberOfDeduplicatedSentMessages", Kind.COUNTER, "Count", true),
    SENT_MESSAGE_SIZE("SentMessageSize", Kind.DISTRIBUTION, "Bytes", false);

    enum Kind { GAUGE, COUNTER, DISTRIBUTION }

    static final String NAMESPACE = "AWS/SQS";
    static final String DIMENSION = "QueueName";

    final String cloudWatchName;
    final Kind kind;
    final String unit;
    final boolean fifoOnly;

    SqsMetric(String cloudWatchName, Kind kind, String unit, boolean fifoOnly) {
        this.cloudWatchName = cloudWatchName;
        this.kind = kind;
        this.unit = unit;
        this.fifoOnly = fifoOnly;
    }

    static SqsMetric byName(String name) {
        for (SqsMetric m : values()) {
            if (m.cloudWatchName.equals(name)) {
                return m;
            }
        }
        return null;
    }
}
