package io.hikyaku.cloudwatch;

import io.hikyaku.api.ServiceView;
import io.hikyaku.engine.QueueSnapshot;
import io.hikyaku.metrics.QueueKey;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Once a minute, on the injected clock, turns the live metrics into one datapoint per queue and metric
 * for the minute that just ended: gauges read from the service at the sample, counters as the
 * increase of the metrics module's counters since the previous sample, sizes from {@link SentSizes}.
 * Traffic between two samples further apart than a minute (a stalled scheduler, a clock jump) counts
 * in the last minute before the sample.
 */
final class MetricSampler {

    private static final Logger LOG = LoggerFactory.getLogger(MetricSampler.class);

    /** The metrics module's counter names (docs/operations.md "Monitoring"), by CloudWatch metric. */
    private static final Map<SqsMetric, String> COUNTERS = Map.of(
            SqsMetric.NUMBER_OF_EMPTY_RECEIVES, "hikyaku.sqs.number.of.empty.receives",
            SqsMetric.NUMBER_OF_MESSAGES_DELETED, "hikyaku.sqs.number.of.messages.deleted",
            SqsMetric.NUMBER_OF_MESSAGES_RECEIVED, "hikyaku.sqs.number.of.messages.received",
            SqsMetric.NUMBER_OF_MESSAGES_SENT, "hikyaku.sqs.number.of.messages.sent",
            SqsMetric.NUMBER_OF_DEDUPLICATED_SENT_MESSAGES, "hikyaku.sqs.number.of.deduplicated.sent.messages");

    private final ServiceView view;
    private final MeterRegistry registry;
    private final SentSizes sizes;
    private final MetricHistory history;
    private final Clock clock;
    /** Counter totals at the previous sample, by queue and metric. */
    private final Map<QueueKey, long[]> previous = new HashMap<>();
    private long lastMinute = -1;
    private boolean capLogged;

    MetricSampler(ServiceView view, MeterRegistry registry, SentSizes sizes, MetricHistory history, Clock clock) {
        this.view = view;
        this.registry = registry;
        this.sizes = sizes;
        this.history = history;
        this.clock = clock;
    }

    static long minuteOf(long millis) {
        return Math.floorDiv(millis, 60_000L);
    }

    /**
     * Samples when the clock has entered a new minute since the last sample; the first call only
     * takes the counters' starting totals. @return whether a sample was recorded
     */
    synchronized boolean runDue() {
        long now = clock.millis();
        long minute = minuteOf(now);
        if (lastMinute < 0) {
            lastMinute = minute;
            sample(now, minute - 1, false);
            return false;
        }
        if (minute <= lastMinute) {
            return false;
        }
        lastMinute = minute;
        sample(now, minute - 1, true);
        return true;
    }

    private void sample(long now, long label, boolean record) {
        Set<QueueKey> present = new HashSet<>();
        for (QueueSnapshot q : view.queueSnapshots()) {
            QueueKey key = new QueueKey(q.accountId(), q.name());
            present.add(key);
            long[] totals = counterTotals(key);
            long[] before = previous.put(key, totals);
            SentSizes.Sizes sent = sizes.drain(key);
            if (!record) {
                continue;
            }
            QueueSeries series = history.series(q.accountId(), q.name(), q.fifo(), label + 1);
            if (series == null) {
                if (!capLogged) {
                    capLogged = true;
                    LOG.warn("CloudWatch metrics: the cap of tracked queues is reached; queue {} and others are not recorded", q.name());
                }
                continue;
            }
            long[] values = new long[QueueSeries.SINGLE];
            java.util.Arrays.fill(values, QueueSeries.ABSENT);
            values[SqsMetric.APPROXIMATE_NUMBER_OF_MESSAGES_VISIBLE.ordinal()] = q.visible();
            values[SqsMetric.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE.ordinal()] = q.notVisible();
            values[SqsMetric.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED.ordinal()] = q.delayed();
            values[SqsMetric.APPROXIMATE_AGE_OF_OLDEST_MESSAGE.ordinal()] =
                    q.oldestSentAt() < 0 ? 0 : Math.max(0, now - q.oldestSentAt()) / 1000;
            if (q.fifo()) {
                values[SqsMetric.APPROXIMATE_NUMBER_OF_GROUPS_WITH_INFLIGHT_MESSAGES.ordinal()] = q.groupsWithInflight();
            }
            for (SqsMetric m : COUNTERS.keySet()) {
                if (m.fifoOnly && !q.fifo()) {
                    continue;
                }
                long was = before == null ? 0 : before[m.ordinal()];
                long is = totals[m.ordinal()];
                // A counter below its previous total was removed and created again (queue deleted and recreated).
                values[m.ordinal()] = is >= was ? is - was : is;
            }
            if (sent != null && sent.count > 0) {
                history.record(series, label, values, sent.count, sent.sum, sent.min, sent.max);
            } else {
                history.record(series, label, values, 0, 0, 0, 0);
            }
        }
        previous.keySet().retainAll(present);
    }

    private long[] counterTotals(QueueKey key) {
        long[] totals = new long[QueueSeries.SINGLE];
        for (Map.Entry<SqsMetric, String> e : COUNTERS.entrySet()) {
            Counter c = registry.find(e.getValue()).tag("account", key.accountId()).tag("queue", key.name()).counter();
            totals[e.getKey().ordinal()] = c == null ? 0 : (long) c.count();
        }
        return totals;
    }
}
