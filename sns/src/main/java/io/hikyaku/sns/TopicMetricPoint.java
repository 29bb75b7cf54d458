package io.hikyaku.sns;

/**
 * One AWS/SNS datapoint of a topic for the CloudWatch API: {@code count} samples summing to {@code sum}, between
 * {@code min} and {@code max}, gathered since the previous drain ({@link SnsService#drainTopicMetrics}).
 *
 * @param topicName the value of dimension {@code TopicName}
 * @param unit      {@code Count} or {@code Bytes}
 */
public record TopicMetricPoint(String accountId, String topicName, String metricName, String unit,
                               long count, double sum, double min, double max) {
}
