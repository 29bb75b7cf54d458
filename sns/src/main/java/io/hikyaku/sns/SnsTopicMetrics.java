package io.hikyaku.sns;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What SNS counts, under CloudWatch's AWS/SNS names: server-wide totals since the start (for {@code /metrics}) and,
 * per topic, what happened since the last {@link #drain} (for the CloudWatch API, which drains once a minute and
 * files it under dimension {@code TopicName}). Counts are samples of 1 (Sum = SampleCount = the count, as AWS
 * reports them); PublishSize is one sample per published message, in bytes. Thread-safe: recorders and the drain
 * meet on a per-topic lock; a topic with nothing since the last drain is forgotten, so memory follows the active
 * topics.
 */
final class SnsTopicMetrics {

    /** The AWS/SNS count metrics kept per topic, and one server-wide total that is not an AWS metric. */
    enum Count {
        PUBLISHED("NumberOfMessagesPublished"),
        DELIVERED("NumberOfNotificationsDelivered"),
        FAILED("NumberOfNotificationsFailed"),
        FILTERED_OUT("NumberOfNotificationsFilteredOut"),
        FILTERED_OUT_NO_MESSAGE_ATTRIBUTES("NumberOfNotificationsFilteredOut-NoMessageAttributes"),
        FILTERED_OUT_INVALID_ATTRIBUTES("NumberOfNotificationsFilteredOut-InvalidAttributes"),
        FILTERED_OUT_INVALID_MESSAGE_BODY("NumberOfNotificationsFilteredOut-InvalidMessageBody"),
        REDRIVEN_TO_DLQ("NumberOfNotificationsRedrivenToDlq"),
        FAILED_TO_REDRIVE_TO_DLQ("NumberOfNotificationsFailedToRedriveToDlq"),
        /** Server-wide only (not an AWS/SNS metric): queue deliveries the target queue's policy denied. */
        DENIED_BY_QUEUE_POLICY("NotificationsDeniedByQueuePolicy");

        final String metricName;

        Count(String metricName) {
            this.metricName = metricName;
        }

        boolean perTopic() {
            return this != DENIED_BY_QUEUE_POLICY;
        }
    }

    static final String PUBLISH_SIZE = "PublishSize";

    /** One topic's counts and message sizes since the last drain. */
    private static final class Tally {
        final long[] counts = new long[Count.values().length];
        long sizes;
        long sizeSum;
        long sizeMin = Long.MAX_VALUE;
        long sizeMax = Long.MIN_VALUE;
        /** Drained empty and removed from the map: a recorder that finds it takes a fresh one. */
        boolean retired;

        boolean empty() {
            if (sizes > 0) {
                return false;
            }
            for (long c : counts) {
                if (c != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    private final Map<Count, LongAdder> totals = new EnumMap<>(Count.class);
    private final ConcurrentHashMap<String, Tally> byTopic = new ConcurrentHashMap<>();

    SnsTopicMetrics() {
        for (Count c : Count.values()) {
            totals.put(c, new LongAdder());
        }
    }

    void count(String topicArn, Count what) {
        count(topicArn, what, 1);
    }

    void count(String topicArn, Count what, long n) {
        if (n <= 0) {
            return;
        }
        totals.get(what).add(n);
        if (!what.perTopic()) {
            return;
        }
        while (true) {
            Tally t = byTopic.computeIfAbsent(topicArn, k -> new Tally());
            synchronized (t) {
                if (!t.retired) {
                    t.counts[what.ordinal()] += n;
                    return;
                }
            }
        }
    }

    /** A message published to the topic: NumberOfMessagesPublished and one PublishSize sample. */
    void published(String topicArn, long sizeBytes) {
        totals.get(Count.PUBLISHED).increment();
        while (true) {
            Tally t = byTopic.computeIfAbsent(topicArn, k -> new Tally());
            synchronized (t) {
                if (!t.retired) {
                    t.counts[Count.PUBLISHED.ordinal()]++;
                    t.sizes++;
                    t.sizeSum += sizeBytes;
                    t.sizeMin = Math.min(t.sizeMin, sizeBytes);
                    t.sizeMax = Math.max(t.sizeMax, sizeBytes);
                    return;
                }
            }
        }
    }

    long total(Count what) {
        return totals.get(what).sum();
    }

    /** Each topic's datapoints since the last call (only metrics with something to say), then forgets them. */
    List<TopicMetricPoint> drain() {
        List<TopicMetricPoint> out = new ArrayList<>();
        for (Map.Entry<String, Tally> e : byTopic.entrySet()) {
            Tally t = e.getValue();
            String account = SnsArns.account(e.getKey());
            String name = SnsArns.topicName(e.getKey());
            synchronized (t) {
                if (t.empty()) {
                    t.retired = true;
                    byTopic.remove(e.getKey(), t);
                    continue;
                }
                for (Count c : Count.values()) {
                    long n = t.counts[c.ordinal()];
                    if (n > 0 && c.perTopic()) {
                        out.add(new TopicMetricPoint(account, name, c.metricName, "Count", n, n, 1, 1));
                    }
                    t.counts[c.ordinal()] = 0;
                }
                if (t.sizes > 0) {
                    out.add(new TopicMetricPoint(account, name, PUBLISH_SIZE, "Bytes", t.sizes, t.sizeSum, t.sizeMin, t.sizeMax));
                }
                t.sizes = 0;
                t.sizeSum = 0;
                t.sizeMin = Long.MAX_VALUE;
                t.sizeMax = Long.MIN_VALUE;
            }
        }
        return out;
    }
}
