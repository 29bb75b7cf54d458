package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Datapoint;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.Statistic;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The Scheduler's invocation outcomes in CloudWatch's AWS/Scheduler namespace (SDK v2 GetMetricStatistics and
 * ListMetrics: without dimensions and by ScheduleGroup, as AWS publishes them) and in {@code /metrics}: a fire
 * delivered to its queue, and a fire to a queue that does not exist, dropped at once by its retry policy and
 * sent to its dead-letter queue.
 */
class SchedulerMetricsTest extends SqsTestBase {

    private static final String ROLE = "arn:aws:iam::000000000000:role/scheduler";

    private CloudWatchClient cloudWatch() {
        return CloudWatchClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    private Message one(String url) {
        for (int i = 0; i < 10; i++) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1)).messages();
            if (!got.isEmpty()) {
                return got.get(0);
            }
        }
        throw new AssertionError("no message in " + url);
    }

    private double sum(CloudWatchClient cw, String metric, String group) {
        long now = clock.millis();
        List<Datapoint> points = cw.getMetricStatistics(b -> {
            b.namespace("AWS/Scheduler").metricName(metric).period(60).statistics(Statistic.SUM)
                    .startTime(Instant.ofEpochMilli(now - 600_000)).endTime(Instant.ofEpochMilli(now + 60_000));
            if (group != null) {
                b.dimensions(Dimension.builder().name("ScheduleGroup").value(group).build());
            }
        }).datapoints();
        return points.stream().mapToDouble(Datapoint::sum).sum();
    }

    @Test
    void attemptsTargetErrorsDropsAndDeadLettersAreCountedByGroupAndInAll() throws Exception {
        String target = sqs.createQueue(b -> b.queueName(unique("sched-metrics"))).queueUrl();
        String dlq = sqs.createQueue(b -> b.queueName(unique("sched-metrics-dlq"))).queueUrl();
        String targetArn = "arn:aws:sqs:us-east-1:000000000000:" + target.substring(target.lastIndexOf('/') + 1);
        String dlqArn = "arn:aws:sqs:us-east-1:000000000000:" + dlq.substring(dlq.lastIndexOf('/') + 1);
        assertThat(http.post("/schedule-groups/metrics-grp", "{}".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
        // rate(): the first run is at once
        assertThat(http.post("/schedules/delivered", ("{\"ScheduleExpression\":\"rate(1 day)\",\"FlexibleTimeWindow\":{\"Mode\":\"OFF\"},"
                + "\"Target\":{\"Arn\":\"" + targetArn + "\",\"RoleArn\":\"" + ROLE + "\",\"Input\":\"hello\"}}")
                .getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
        assertThat(one(target).body()).isEqualTo("hello");
        assertThat(http.post("/schedules/dropped", ("{\"GroupName\":\"metrics-grp\",\"ScheduleExpression\":\"rate(1 day)\","
                + "\"FlexibleTimeWindow\":{\"Mode\":\"OFF\"},\"Target\":{\"Arn\":\"arn:aws:sqs:us-east-1:000000000000:no-such-queue\","
                + "\"RoleArn\":\"" + ROLE + "\",\"RetryPolicy\":{\"MaximumRetryAttempts\":0},\"DeadLetterConfig\":{\"Arn\":\"" + dlqArn + "\"}}}")
                .getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
        assertThat(one(dlq).body()).contains("\"ScheduleArn\":\"arn:aws:scheduler:us-east-1:000000000000:schedule/metrics-grp/dropped\"");

        try (CloudWatchClient cw = cloudWatch()) {
            assertThat(sum(cw, "InvocationAttemptCount", "default")).isEqualTo(1.0);
            assertThat(sum(cw, "InvocationAttemptCount", "metrics-grp")).isEqualTo(1.0);
            assertThat(sum(cw, "InvocationAttemptCount", null)).isEqualTo(2.0); // all schedules: no dimension
            assertThat(sum(cw, "TargetErrorCount", "default")).isZero();
            assertThat(sum(cw, "TargetErrorCount", "metrics-grp")).isEqualTo(1.0);
            assertThat(sum(cw, "InvocationDroppedCount", "metrics-grp")).isEqualTo(1.0);
            assertThat(sum(cw, "InvocationsSentToDeadLetterCount", "metrics-grp")).isEqualTo(1.0);
            assertThat(sum(cw, "InvocationsFailedToBeSentToDeadLetterCount", null)).isZero();
            List<Metric> listed = cw.listMetrics(b -> b.namespace("AWS/Scheduler")).metrics();
            assertThat(listed).extracting(Metric::metricName).contains("InvocationAttemptCount", "TargetErrorCount",
                    "InvocationDroppedCount", "InvocationsSentToDeadLetterCount");
            assertThat(listed).filteredOn(m -> m.metricName().equals("TargetErrorCount"))
                    .extracting(m -> m.dimensions().stream().map(d -> d.name() + "=" + d.value()).toList())
                    .containsExactlyInAnyOrder(List.of(), List.of("ScheduleGroup=metrics-grp"));
        }

        PrometheusText scraped = PrometheusText.parse(http.get("/metrics").body());
        assertThat(value(scraped, "hikyaku_scheduler_invocation_attempt_count_total")).isEqualTo(2.0);
        assertThat(value(scraped, "hikyaku_scheduler_target_error_count_total")).isEqualTo(1.0);
        assertThat(value(scraped, "hikyaku_scheduler_invocation_dropped_count_total")).isEqualTo(1.0);
        assertThat(value(scraped, "hikyaku_scheduler_invocations_sent_to_dead_letter_count_total")).isEqualTo(1.0);
        assertThat(value(scraped, "hikyaku_scheduler_schedules")).isEqualTo(2.0);
    }

    private static double value(PrometheusText text, String name) {
        return text.samples.stream().filter(s -> s.name().equals(name)).mapToDouble(PrometheusText.Sample::value)
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " in /metrics"));
    }
}
