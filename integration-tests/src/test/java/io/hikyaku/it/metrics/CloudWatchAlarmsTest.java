package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.CloudWatchException;
import software.amazon.awssdk.services.cloudwatch.model.ComparisonOperator;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;
import software.amazon.awssdk.services.cloudwatch.model.StandardUnit;
import software.amazon.awssdk.services.cloudwatch.model.StateValue;
import software.amazon.awssdk.services.cloudwatch.model.Statistic;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The three alarm recipes on the real server with the AWS SDK for Java v2 (CloudWatch, SNS, SQS), on
 * the server's fake clock: a DLQ depth alarm that notifies a queue subscribed to its topic when a
 * message is dead-lettered and again after the redrive; backlog per worker (queue depth over a custom
 * RunningWorkers metric) in GetMetricData and in an alarm; missing-data treatment.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CloudWatchAlarmsTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private CloudWatchClient cw;
    private SnsClient sns;

    @BeforeAll
    void clients() {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        cw = CloudWatchClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    /** The clock enters the next minute: the minute that ended is sampled, then every alarm is evaluated. */
    private void nextMinute() throws InterruptedException {
        clock.advance(Duration.ofSeconds(60 - clock.millis() / 1000 % 60));
        server.cloudWatch().sampleNow();
        assertThat(server.cloudWatch().awaitActions(10_000)).isTrue();
    }

    private MetricAlarm alarm(String name) {
        List<MetricAlarm> all = cw.describeAlarms(b -> b.alarmNames(name)).metricAlarms();
        assertThat(all).hasSize(1);
        return all.get(0);
    }

    /** The alarm notifications delivered to {@code url} (SNS envelopes around CloudWatch's JSON). */
    private List<JsonNode> notifications(String url, int expected) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < 20 && out.size() < expected; i++) {
            for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)).messages()) {
                JsonNode envelope = JSON.readTree(m.body());
                assertThat(envelope.get("Type").asText()).isEqualTo("Notification");
                JsonNode message = JSON.readTree(envelope.get("Message").asText());
                message = ((com.fasterxml.jackson.databind.node.ObjectNode) message).put("_subject", envelope.get("Subject").asText());
                out.add(message);
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
            }
        }
        assertThat(out).hasSize(expected);
        return out;
    }

    private String subscribedQueue(String topicArn) {
        String name = unique("ops");
        String url = createQueue(name);
        sns.subscribe(b -> b.topicArn(topicArn).protocol("sqs").endpoint(arn(name)));
        return url;
    }

    @Test
    void deadLetterAlarmNotifiesOnDeadLetteringAndAfterTheRedrive() throws Exception {
        String dlqName = unique("orders-dlq");
        String dlq = createQueue(dlqName);
        String srcName = unique("orders");
        String src = createQueue(srcName, Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        String topic = sns.createTopic(b -> b.name(unique("ops-alerts"))).topicArn();
        String ops = subscribedQueue(topic);
        String alarmName = unique("dlq-depth");
        cw.putMetricAlarm(b -> b.alarmName(alarmName).alarmDescription("Messages in the orders DLQ")
                .namespace("AWS/SQS").metricName("ApproximateNumberOfMessagesVisible")
                .dimensions(Dimension.builder().name("QueueName").value(dlqName).build())
                .statistic(Statistic.MAXIMUM).period(60).evaluationPeriods(1).threshold(0.0)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD).treatMissingData("notBreaching")
                .alarmActions(topic).okActions(topic));
        assertThat(alarm(alarmName).stateValue()).isEqualTo(StateValue.INSUFFICIENT_DATA);
        nextMinute();
        assertThat(alarm(alarmName).stateValue()).as("an empty DLQ").isEqualTo(StateValue.OK);

        // A message that fails once is dead-lettered (maxReceiveCount 1).
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("poison"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src).visibilityTimeout(1)).messages()).hasSize(1);
        advance(Duration.ofSeconds(2));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src)).messages()).isEmpty();
        assertThat(attribute(dlq, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("1");
        nextMinute();
        MetricAlarm fired = alarm(alarmName);
        assertThat(fired.stateValue()).isEqualTo(StateValue.ALARM);
        assertThat(fired.stateReason()).startsWith("Threshold Crossed: 1 out of the last 1 datapoints [1.0 (");

        // Redrive back to the source: the DLQ empties and the alarm returns to OK.
        sqs.startMessageMoveTask(b -> b.sourceArn(arn(dlqName)));
        for (int i = 0; i < 50 && !"0".equals(attribute(dlq, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)); i++) {
            advance(Duration.ofSeconds(1));
        }
        assertThat(attribute(dlq, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("0");
        nextMinute();
        assertThat(alarm(alarmName).stateValue()).isEqualTo(StateValue.OK);

        List<JsonNode> got = notifications(ops, 3);
        got.sort((x, y) -> x.get("StateChangeTime").asText().compareTo(y.get("StateChangeTime").asText()));
        assertThat(got).extracting(n -> n.get("NewStateValue").asText()).containsExactly("OK", "ALARM", "OK");
        JsonNode alarmed = got.get(1);
        assertThat(alarmed.get("AlarmName").asText()).isEqualTo(alarmName);
        assertThat(alarmed.get("AlarmDescription").asText()).isEqualTo("Messages in the orders DLQ");
        assertThat(alarmed.get("AWSAccountId").asText()).isEqualTo(ACCOUNT);
        assertThat(alarmed.get("OldStateValue").asText()).isEqualTo("OK");
        assertThat(alarmed.get("Region").asText()).isEqualTo("US East (N. Virginia)");
        assertThat(alarmed.get("AlarmArn").asText()).isEqualTo("arn:aws:cloudwatch:us-east-1:" + ACCOUNT + ":alarm:" + alarmName);
        assertThat(alarmed.get("_subject").asText()).isEqualTo("ALARM: \"" + alarmName + "\" in US East (N. Virginia)");
        JsonNode trigger = alarmed.get("Trigger");
        assertThat(trigger.get("MetricName").asText()).isEqualTo("ApproximateNumberOfMessagesVisible");
        assertThat(trigger.get("Namespace").asText()).isEqualTo("AWS/SQS");
        assertThat(trigger.get("Statistic").asText()).isEqualTo("MAXIMUM");
        assertThat(trigger.get("Dimensions").get(0).get("name").asText()).isEqualTo("QueueName");
        assertThat(trigger.get("Dimensions").get(0).get("value").asText()).isEqualTo(dlqName);
        assertThat(trigger.get("ComparisonOperator").asText()).isEqualTo("GreaterThanThreshold");
        assertThat(got.get(2).get("OldStateValue").asText()).isEqualTo("ALARM");

        var history = cw.describeAlarmHistory(b -> b.alarmName(alarmName).historyItemType("StateUpdate")).alarmHistoryItems();
        assertThat(history).extracting(h -> h.historySummary()).containsExactly("Alarm updated from ALARM to OK",
                "Alarm updated from OK to ALARM", "Alarm updated from INSUFFICIENT_DATA to OK");
        assertThat(cw.describeAlarmsForMetric(b -> b.namespace("AWS/SQS").metricName("ApproximateNumberOfMessagesVisible")
                .dimensions(Dimension.builder().name("QueueName").value(dlqName).build())).metricAlarms())
                .extracting(MetricAlarm::alarmName).containsExactly(alarmName);
        cw.deleteAlarms(b -> b.alarmNames(alarmName));
        assertThat(cw.describeAlarms(b -> b.alarmNames(alarmName)).metricAlarms()).isEmpty();
    }

    @Test
    void backlogPerWorkerFromACustomRunningWorkersMetric() throws Exception {
        String queueName = unique("jobs");
        String queue = createQueue(queueName);
        for (int i = 0; i < 12; i++) {
            sqs.sendMessage(b -> b.queueUrl(queue).messageBody("job"));
        }
        String service = unique("worker-pool");
        Dimension pool = Dimension.builder().name("Service").value(service).build();
        nextMinute(); // the minute the test starts in may be partial
        long first = clock.millis() / 60_000 * 60;
        cw.putMetricData(b -> b.namespace("Hikyaku/Workers").metricData(d -> d.metricName("RunningWorkers").dimensions(pool)
                .value(3.0).unit(StandardUnit.COUNT)));
        nextMinute();
        // The next minute no worker count is published: that point is missing, not infinite.
        nextMinute();
        cw.putMetricData(b -> b.namespace("Hikyaku/Workers").metricData(d -> d.metricName("RunningWorkers").dimensions(pool)
                .values(4.0, 2.0).counts(1.0, 1.0).unit(StandardUnit.COUNT)));
        nextMinute();
        List<MetricDataQuery> queries = backlogPerWorker(queueName, pool, true);
        List<MetricDataResult> results = cw.getMetricData(b -> b.startTime(Instant.ofEpochSecond(first))
                .endTime(Instant.ofEpochSecond(first + 180)).scanBy(ScanBy.TIMESTAMP_ASCENDING).metricDataQueries(queries)).metricDataResults();
        assertThat(results).hasSize(1);
        MetricDataResult perWorker = results.get(0);
        assertThat(perWorker.id()).isEqualTo("e1");
        assertThat(perWorker.label()).isEqualTo("Backlog per worker");
        assertThat(perWorker.timestamps()).containsExactly(Instant.ofEpochSecond(first), Instant.ofEpochSecond(first + 120));
        assertThat(perWorker.values()).containsExactly(4.0, 4.0);
        assertThat(cw.listMetrics(b -> b.namespace("Hikyaku/Workers")).metrics()).anySatisfy(m -> {
            assertThat(m.metricName()).isEqualTo("RunningWorkers");
            assertThat(m.dimensions()).containsExactly(pool);
        });

        // The same expression as an alarm: more than 3 messages per worker.
        String topic = sns.createTopic(b -> b.name(unique("scale-out"))).topicArn();
        String ops = subscribedQueue(topic);
        String alarmName = unique("backlog-per-worker");
        cw.putMetricAlarm(b -> b.alarmName(alarmName).evaluationPeriods(1).threshold(3.0)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD).metrics(backlogPerWorker(queueName, pool, false))
                .alarmActions(topic));
        cw.putMetricData(b -> b.namespace("Hikyaku/Workers").metricData(d -> d.metricName("RunningWorkers").dimensions(pool).value(2.0)));
        nextMinute();
        assertThat(alarm(alarmName).stateValue()).isEqualTo(StateValue.ALARM);
        assertThat(alarm(alarmName).metrics()).hasSize(3);
        JsonNode n = notifications(ops, 1).get(0);
        assertThat(n.get("NewStateValue").asText()).isEqualTo("ALARM");
        assertThat(n.get("Trigger").get("Metrics").get(2).get("Expression").asText()).isEqualTo("m1 / m2");
        cw.putMetricData(b -> b.namespace("Hikyaku/Workers").metricData(d -> d.metricName("RunningWorkers").dimensions(pool).value(6.0)));
        nextMinute();
        assertThat(alarm(alarmName).stateValue()).isEqualTo(StateValue.OK);

        // An unknown function is CloudWatch's ValidationError.
        assertThatThrownBy(() -> cw.getMetricData(b -> b.startTime(Instant.ofEpochSecond(first)).endTime(Instant.ofEpochSecond(first + 180))
                .metricDataQueries(MetricDataQuery.builder().id("e1").expression("PERCENTILE(m1)").build())))
                .isInstanceOfSatisfying(CloudWatchException.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationError");
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("Error in expression e1: Unknown function PERCENTILE.");
                });
    }

    private static List<MetricDataQuery> backlogPerWorker(String queueName, Dimension pool, boolean forGetMetricData) {
        return List.of(
                MetricDataQuery.builder().id("m1").returnData(false).metricStat(s -> s.period(60).stat("Average").metric(m -> m
                        .namespace("AWS/SQS").metricName("ApproximateNumberOfMessagesVisible")
                        .dimensions(Dimension.builder().name("QueueName").value(queueName).build()))).build(),
                MetricDataQuery.builder().id("m2").returnData(false).metricStat(s -> s.period(60).stat("Average").metric(m -> m
                        .namespace("Hikyaku/Workers").metricName("RunningWorkers").dimensions(pool))).build(),
                MetricDataQuery.builder().id("e1").expression("m1 / m2").label("Backlog per worker").returnData(true).build());
    }

    @Test
    void missingDataTreatment() throws Exception {
        String silent = unique("Silent");
        for (String treat : List.of("missing", "notBreaching", "breaching", "ignore")) {
            cw.putMetricAlarm(b -> b.alarmName(silent + "-" + treat).namespace("Hikyaku/Heartbeat").metricName(silent)
                    .statistic(Statistic.SUM).period(60).evaluationPeriods(3).datapointsToAlarm(2).threshold(1.0)
                    .comparisonOperator(ComparisonOperator.LESS_THAN_THRESHOLD).treatMissingData(treat));
        }
        nextMinute();
        assertThat(cw.describeAlarms(b -> b.alarmNamePrefix(silent + "-")).metricAlarms())
                .extracting(MetricAlarm::alarmName, MetricAlarm::stateValueAsString).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(silent + "-breaching", "ALARM"),
                        org.assertj.core.groups.Tuple.tuple(silent + "-ignore", "INSUFFICIENT_DATA"),
                        org.assertj.core.groups.Tuple.tuple(silent + "-missing", "INSUFFICIENT_DATA"),
                        org.assertj.core.groups.Tuple.tuple(silent + "-notBreaching", "OK"));
        assertThat(cw.describeAlarms(b -> b.alarmNamePrefix(silent + "-").stateValue(StateValue.INSUFFICIENT_DATA)).metricAlarms())
                .hasSize(2);
        // One good heartbeat: missing and ignore now judge the one present datapoint.
        cw.putMetricData(b -> b.namespace("Hikyaku/Heartbeat").metricData(d -> d.metricName(silent).value(5.0)));
        nextMinute();
        assertThat(alarm(silent + "-missing").stateValue()).isEqualTo(StateValue.OK);
        assertThat(alarm(silent + "-ignore").stateValue()).isEqualTo(StateValue.OK);
        assertThat(alarm(silent + "-breaching").stateValue()).as("two of three missing = breaching").isEqualTo(StateValue.ALARM);
        // Tags and SetAlarmState on the way.
        String arn = alarm(silent + "-missing").alarmArn();
        cw.tagResource(b -> b.resourceARN(arn).tags(t -> t.key("team").value("payments")));
        assertThat(cw.listTagsForResource(b -> b.resourceARN(arn)).tags()).extracting(t -> t.key() + "=" + t.value())
                .containsExactly("team=payments");
        cw.setAlarmState(b -> b.alarmName(silent + "-missing").stateValue(StateValue.ALARM).stateReason("drill"));
        assertThat(alarm(silent + "-missing").stateReason()).isEqualTo("drill");
        cw.deleteAlarms(b -> b.alarmNames(silent + "-missing", silent + "-notBreaching", silent + "-breaching", silent + "-ignore"));
    }
}
