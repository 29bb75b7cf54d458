package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-topic AWS/SNS datapoints drained once, totals kept for /metrics. */
class SnsTopicMetricsTest {

    private static final String ORDERS = "arn:aws:sns:us-east-1:000000000000:orders";
    private static final String AUDIT = "arn:aws:sns:us-east-1:000000000000:audit";

    @Test
    void aDrainReturnsEachTopicsCountsAndSizesOnceAndTheTotalsStay() {
        SnsTopicMetrics m = new SnsTopicMetrics();
        m.published(ORDERS, 10);
        m.published(ORDERS, 30);
        m.count(ORDERS, SnsTopicMetrics.Count.DELIVERED, 2);
        m.count(AUDIT, SnsTopicMetrics.Count.FILTERED_OUT);
        m.count(AUDIT, SnsTopicMetrics.Count.DENIED_BY_QUEUE_POLICY);

        List<TopicMetricPoint> first = m.drain();
        assertThat(first).containsExactlyInAnyOrder(
                new TopicMetricPoint("000000000000", "orders", "NumberOfMessagesPublished", "Count", 2, 2, 1, 1),
                new TopicMetricPoint("000000000000", "orders", "NumberOfNotificationsDelivered", "Count", 2, 2, 1, 1),
                new TopicMetricPoint("000000000000", "orders", "PublishSize", "Bytes", 2, 40, 10, 30),
                new TopicMetricPoint("000000000000", "audit", "NumberOfNotificationsFilteredOut", "Count", 1, 1, 1, 1));
        assertThat(m.drain()).as("nothing happened since").isEmpty();
        m.count(ORDERS, SnsTopicMetrics.Count.FAILED);
        assertThat(m.drain()).containsExactly(
                new TopicMetricPoint("000000000000", "orders", "NumberOfNotificationsFailed", "Count", 1, 1, 1, 1));
        assertThat(m.total(SnsTopicMetrics.Count.PUBLISHED)).isEqualTo(2);
        assertThat(m.total(SnsTopicMetrics.Count.DELIVERED)).isEqualTo(2);
        assertThat(m.total(SnsTopicMetrics.Count.DENIED_BY_QUEUE_POLICY)).isEqualTo(1);
    }
}
