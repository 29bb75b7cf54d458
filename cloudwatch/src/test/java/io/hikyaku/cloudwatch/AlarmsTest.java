package io.hikyaku.cloudwatch;

import static io.hikyaku.cloudwatch.PutMetricDataTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alarms through the API on a fake clock: evaluation each minute, actions, history, filters, tags, the alarms file. */
class AlarmsTest {

    private static final String ACCOUNT = "111111111111";
    private static final String TOPIC = "arn:aws:sns:us-east-1:111111111111:ops";
    private final FakeClock clock = new FakeClock(1_800_000_000_000L - 1_800_000_000_000L % 60_000 + 1_000);
    private final CloudWatch cw = CloudWatch.withoutData(clock, ACCOUNT);
    private final JsonCalls a = new JsonCalls(cw, ACCOUNT);
    private final List<String[]> published = new ArrayList<>();

    AlarmsTest() {
        cw.alarmsIn("us-east-1", (account, topic, subject, message) -> {
            synchronized (published) {
                published.add(new String[] {account, topic, subject, message});
            }
            return null;
        });
    }

    @AfterEach
    void close() {
        cw.close();
    }

    private void workers(double value) {
        a.call("PutMetricData", "{\"Namespace\":\"App\",\"MetricData\":[{\"MetricName\":\"Depth\",\"Value\":" + value + "}]}");
        assertThat(a.lastStatus).isEqualTo(200);
    }

    /** The minute ends: the next one begins and the alarms are evaluated. */
    private void nextMinute() throws InterruptedException {
        clock.advanceSeconds(60);
        assertThat(cw.evaluateAlarmsNow()).isTrue();
        assertThat(cw.awaitActions(5000)).isTrue();
    }

    private JsonNode alarm(String name) {
        JsonNode all = a.call("DescribeAlarms", "{\"AlarmNames\":[\"" + name + "\"]}").get("MetricAlarms");
        assertThat(all).hasSize(1);
        return all.get(0);
    }

    private void putAlarm(String name, String extra) {
        a.call("PutMetricAlarm", "{\"AlarmName\":\"" + name + "\",\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Statistic\":\"Maximum\","
                + "\"Period\":60,\"EvaluationPeriods\":1,\"Threshold\":0,\"ComparisonOperator\":\"GreaterThanThreshold\","
                + "\"AlarmActions\":[\"" + TOPIC + "\"],\"OKActions\":[\"" + TOPIC + "\"]" + extra + "}");
        assertThat(a.lastStatus).as(name).isEqualTo(200);
    }

    @Test
    void goesToAlarmAndBackWithNotifications() throws Exception {
        putAlarm("depth", ",\"AlarmDescription\":\"DLQ not empty\"");
        JsonNode created = alarm("depth");
        assertThat(created.get("StateValue").asText()).isEqualTo("INSUFFICIENT_DATA");
        assertThat(created.get("StateReason").asText()).isEqualTo("Unchecked: Initial alarm creation");
        assertThat(created.get("AlarmArn").asText()).isEqualTo("arn:aws:cloudwatch:us-east-1:111111111111:alarm:depth");
        workers(3);
        nextMinute();
        JsonNode fired = alarm("depth");
        assertThat(fired.get("StateValue").asText()).isEqualTo("ALARM");
        assertThat(fired.get("StateReason").asText()).startsWith("Threshold Crossed: 1 out of the last 1 datapoints [3.0 (");
        assertThat(JsonCalls.JSON.readTree(fired.get("StateReasonData").asText()).get("evaluatedDatapoints").get(0).get("value").asDouble())
                .isEqualTo(3.0);
        assertThat(published).hasSize(1);
        String[] p = published.get(0);
        assertThat(p[0]).isEqualTo(ACCOUNT);
        assertThat(p[1]).isEqualTo(TOPIC);
        assertThat(p[2]).isEqualTo("ALARM: \"depth\" in US East (N. Virginia)");
        JsonNode message = JsonCalls.JSON.readTree(p[3]);
        List<String> fields = new ArrayList<>();
        message.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("AlarmName", "AlarmDescription", "AWSAccountId", "NewStateValue", "NewStateReason",
                "StateChangeTime", "Region", "AlarmArn", "OldStateValue", "Trigger");
        assertThat(message.get("OldStateValue").asText()).isEqualTo("INSUFFICIENT_DATA");
        assertThat(message.get("NewStateValue").asText()).isEqualTo("ALARM");
        assertThat(message.get("AlarmDescription").asText()).isEqualTo("DLQ not empty");
        assertThat(message.get("StateChangeTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\+0000");
        assertThat(message.get("Trigger").get("Statistic").asText()).isEqualTo("MAXIMUM");
        assertThat(message.get("Trigger").get("MetricName").asText()).isEqualTo("Depth");
        assertThat(message.get("Trigger").get("Threshold").asDouble()).isEqualTo(0.0);
        // Same state next minute: no new notification.
        workers(2);
        nextMinute();
        assertThat(published).hasSize(1);
        workers(0);
        nextMinute();
        assertThat(alarm("depth").get("StateValue").asText()).isEqualTo("OK");
        assertThat(published).hasSize(2);
        assertThat(JsonCalls.JSON.readTree(published.get(1)[3]).get("OldStateValue").asText()).isEqualTo("ALARM");
        // History: newest first, state updates and actions.
        JsonNode items = a.call("DescribeAlarmHistory", "{\"AlarmName\":\"depth\",\"HistoryItemType\":\"StateUpdate\"}").get("AlarmHistoryItems");
        assertThat(items).hasSize(2);
        assertThat(items.get(0).get("HistorySummary").asText()).isEqualTo("Alarm updated from ALARM to OK");
        JsonNode acts = a.call("DescribeAlarmHistory", "{\"HistoryItemType\":\"Action\"}").get("AlarmHistoryItems");
        assertThat(acts.get(0).get("HistorySummary").asText()).isEqualTo("Successfully executed action " + TOPIC);
    }

    /** The first round is when the next minute begins, not at start: a new alarm is not judged on a partial minute. */
    @Test
    void theFirstRoundIsAtTheNextMinute() throws Exception {
        putAlarm("fresh", ",\"TreatMissingData\":\"breaching\"");
        assertThat(cw.evaluateAlarmsNow()).isFalse();
        assertThat(alarm("fresh").get("StateValue").asText()).isEqualTo("INSUFFICIENT_DATA");
        nextMinute();
        assertThat(alarm("fresh").get("StateValue").asText()).isEqualTo("ALARM");
    }

    @Test
    void missingDataAndDisabledActionsAndSetState() throws Exception {
        putAlarm("quiet", ",\"TreatMissingData\":\"breaching\"");
        nextMinute();
        assertThat(alarm("quiet").get("StateValue").asText()).as("no datapoint counts as breaching").isEqualTo("ALARM");
        a.call("PutMetricAlarm", "{\"AlarmName\":\"quiet\",\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Statistic\":\"Maximum\","
                + "\"Period\":60,\"EvaluationPeriods\":1,\"Threshold\":0,\"ComparisonOperator\":\"GreaterThanThreshold\","
                + "\"TreatMissingData\":\"notBreaching\",\"OKActions\":[\"" + TOPIC + "\"]}");
        assertThat(alarm("quiet").get("StateValue").asText()).as("an update keeps the state").isEqualTo("ALARM");
        a.call("DisableAlarmActions", "{\"AlarmNames\":[\"quiet\"]}");
        int before = published.size();
        nextMinute();
        assertThat(alarm("quiet").get("StateValue").asText()).isEqualTo("OK");
        assertThat(alarm("quiet").get("ActionsEnabled").asBoolean()).isFalse();
        assertThat(published).hasSize(before);
        a.call("EnableAlarmActions", "{\"AlarmNames\":[\"quiet\"]}");
        a.call("SetAlarmState", "{\"AlarmName\":\"quiet\",\"StateValue\":\"ALARM\",\"StateReason\":\"drill\"}");
        assertThat(cw.awaitActions(5000)).isTrue();
        assertThat(alarm("quiet").get("StateReason").asText()).isEqualTo("drill");
        assertThat(published).hasSize(before); // only OKActions configured now
        nextMinute();
        assertThat(alarm("quiet").get("StateValue").asText()).isEqualTo("OK");
        assertThat(published).hasSize(before + 1);
        putAlarm("ignored", ",\"TreatMissingData\":\"ignore\"");
        nextMinute();
        assertThat(alarm("ignored").get("StateValue").asText()).isEqualTo("INSUFFICIENT_DATA");
    }

    @Test
    void mathAlarmOnBacklogPerWorker() throws Exception {
        a.call("PutMetricAlarm", "{\"AlarmName\":\"per-worker\",\"AlarmActions\":[\"" + TOPIC + "\"],\"EvaluationPeriods\":2,\"DatapointsToAlarm\":2,\"Threshold\":10,"
                + "\"ComparisonOperator\":\"GreaterThanThreshold\",\"Metrics\":["
                + "{\"Id\":\"m1\",\"ReturnData\":false,\"MetricStat\":{\"Metric\":{\"Namespace\":\"App\",\"MetricName\":\"Backlog\"},\"Period\":60,\"Stat\":\"Maximum\"}},"
                + "{\"Id\":\"m2\",\"ReturnData\":false,\"MetricStat\":{\"Metric\":{\"Namespace\":\"App\",\"MetricName\":\"Workers\"},\"Period\":60,\"Stat\":\"Maximum\"}},"
                + "{\"Id\":\"e1\",\"Expression\":\"m1 / m2\",\"Label\":\"Backlog per worker\"}]}");
        assertThat(a.lastStatus).isEqualTo(200);
        for (int i = 0; i < 2; i++) {
            a.call("PutMetricData", "{\"Namespace\":\"App\",\"MetricData\":[{\"MetricName\":\"Backlog\",\"Value\":100},"
                    + "{\"MetricName\":\"Workers\",\"Value\":4}]}");
            nextMinute();
        }
        JsonNode alarm = alarm("per-worker");
        assertThat(alarm.get("StateValue").asText()).isEqualTo("ALARM");
        assertThat(alarm.get("Metrics")).hasSize(3);
        assertThat(alarm.get("Metrics").get(0).get("MetricStat").get("Period").asInt()).isEqualTo(60);
        assertThat(alarm.get("Metrics").get(0).get("ReturnData").asBoolean()).isFalse();
        assertThat(alarm.has("MetricName")).isFalse();
        JsonNode trigger = JsonCalls.JSON.readTree(published.get(0)[3]).get("Trigger");
        assertThat(trigger.get("Metrics").get(2).get("Expression").asText()).isEqualTo("m1 / m2");
        // more workers: 100 / 20 = 5 per worker
        a.call("PutMetricData", "{\"Namespace\":\"App\",\"MetricData\":[{\"MetricName\":\"Backlog\",\"Value\":100},"
                + "{\"MetricName\":\"Workers\",\"Value\":20}]}");
        nextMinute();
        assertThat(alarm("per-worker").get("StateValue").asText()).isEqualTo("OK");
    }

    @Test
    void refusals() {
        String base = "\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Statistic\":\"Maximum\",\"Period\":60,\"EvaluationPeriods\":1,\"Threshold\":0";
        assertError(a.call("PutMetricAlarm", "{\"AlarmName\":\"x\"," + base + ",\"ComparisonOperator\":\"LessThanLowerOrGreaterThanUpperThreshold\"}"),
                "InvalidParameterValueException", "The value LessThanLowerOrGreaterThanUpperThreshold for parameter ComparisonOperator is not "
                        + "supported by this server: anomaly detection bands are not served.");
        assertError(a.call("PutMetricAlarm", "{\"AlarmName\":\"x\"," + base + ",\"ComparisonOperator\":\"GreaterThanThreshold\",\"DatapointsToAlarm\":2}"),
                "ValidationError", "DatapointsToAlarm must be less than or equal to EvaluationPeriods.");
        assertError(a.call("PutMetricAlarm", "{\"AlarmName\":\"x\",\"Namespace\":\"App\",\"MetricName\":\"D\",\"Statistic\":\"Sum\",\"Period\":3600,"
                + "\"EvaluationPeriods\":25,\"Threshold\":0,\"ComparisonOperator\":\"GreaterThanThreshold\"}"),
                "ValidationError", "Metrics cannot be checked across more than a day (EvaluationPeriods * Period must be <= 86400).");
        assertError(a.call("PutMetricAlarm", "{\"AlarmName\":\"x\"," + base + ",\"ComparisonOperator\":\"GreaterThanThreshold\","
                + "\"AlarmActions\":[\"arn:aws:autoscaling:us-east-1:111111111111:scalingPolicy:p\"]}"), "ValidationError",
                "Invalid AlarmActions arn:aws:autoscaling:us-east-1:111111111111:scalingPolicy:p: this server executes SNS topic actions only "
                        + "(arn:aws:sns:<region>:<account>:<topic>).");
        assertError(a.call("PutMetricAlarm", "{\"AlarmName\":\"x\",\"EvaluationPeriods\":1,\"Threshold\":1,\"ComparisonOperator\":\"GreaterThanThreshold\","
                + "\"Metrics\":[{\"Id\":\"m1\",\"MetricStat\":{\"Metric\":{\"Namespace\":\"App\",\"MetricName\":\"A\"},\"Period\":60,\"Stat\":\"Sum\"}},"
                + "{\"Id\":\"e1\",\"Expression\":\"m1 * 2\"}]}"), "ValidationError", "Exactly one element of the metrics list should return data.");
        assertError(a.call("PutMetricAlarm", "{\"AlarmName\":\"x\"," + base + "}"), "MissingRequiredParameterException",
                "The parameter ComparisonOperator is required.");
        assertError(a.call("SetAlarmState", "{\"AlarmName\":\"nope\",\"StateValue\":\"OK\",\"StateReason\":\"r\"}"), "ResourceNotFound",
                "Alarm nope not found");
        assertThat(a.lastStatus).isEqualTo(404);
        assertError(a.call("DeleteAlarms", "{\"AlarmNames\":[\"nope\"]}"), "ResourceNotFound", "1 alarm not found: nope");
        assertError(a.call("ListTagsForResource", "{\"ResourceARN\":\"arn:aws:cloudwatch:us-east-1:111111111111:alarm:nope\"}"),
                "ResourceNotFoundException", "The resource arn:aws:cloudwatch:us-east-1:111111111111:alarm:nope does not exist.");
        assertThat(a.call("DescribeAlarms", "{}").get("MetricAlarms")).isEmpty();
    }

    @Test
    void describeFiltersPagesTagsAndDeletes() {
        for (String n : List.of("b-1", "a-1", "a-2", "a-3")) {
            putAlarm(n, ",\"Tags\":[{\"Key\":\"team\",\"Value\":\"" + n + "\"}]");
        }
        JsonNode page1 = a.call("DescribeAlarms", "{\"AlarmNamePrefix\":\"a-\",\"MaxRecords\":2}");
        assertThat(page1.get("MetricAlarms")).hasSize(2);
        assertThat(page1.get("MetricAlarms").get(0).get("AlarmName").asText()).isEqualTo("a-1");
        JsonNode page2 = a.call("DescribeAlarms", "{\"AlarmNamePrefix\":\"a-\",\"MaxRecords\":2,\"NextToken\":\"" + page1.get("NextToken").asText() + "\"}");
        assertThat(page2.get("MetricAlarms")).hasSize(1);
        assertThat(page2.has("NextToken")).isFalse();
        assertThat(a.call("DescribeAlarms", "{\"StateValue\":\"ALARM\"}").get("MetricAlarms")).isEmpty();
        assertThat(a.call("DescribeAlarms", "{\"ActionPrefix\":\"arn:aws:sns:us-east-1:111111111111:o\"}").get("MetricAlarms")).hasSize(4);
        assertThat(a.call("DescribeAlarms", "{\"AlarmTypes\":[\"CompositeAlarm\"]}").get("MetricAlarms")).isEmpty();
        assertThat(new JsonCalls(cw, "222222222222").call("DescribeAlarms", "{}").get("MetricAlarms")).as("another account").isEmpty();
        JsonNode forMetric = a.call("DescribeAlarmsForMetric", "{\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Statistic\":\"Maximum\"}");
        assertThat(forMetric.get("MetricAlarms")).hasSize(4);
        assertThat(a.call("DescribeAlarmsForMetric", "{\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Dimensions\":[{\"Name\":\"Q\",\"Value\":\"x\"}]}")
                .get("MetricAlarms")).isEmpty();
        String arn = "arn:aws:cloudwatch:us-east-1:111111111111:alarm:a-1";
        a.call("TagResource", "{\"ResourceARN\":\"" + arn + "\",\"Tags\":[{\"Key\":\"env\",\"Value\":\"prod\"}]}");
        a.call("UntagResource", "{\"ResourceARN\":\"" + arn + "\",\"TagKeys\":[\"team\"]}");
        JsonNode tags = a.call("ListTagsForResource", "{\"ResourceARN\":\"" + arn + "\"}").get("Tags");
        assertThat(tags.toString()).isEqualTo("[{\"Key\":\"env\",\"Value\":\"prod\"}]");
        a.call("DeleteAlarms", "{\"AlarmNames\":[\"a-1\",\"a-2\"]}");
        assertThat(a.lastStatus).isEqualTo(200);
        assertThat(a.call("DescribeAlarms", "{}").get("MetricAlarms")).hasSize(2);
        assertError(a.call("DescribeAlarms", "{\"NextToken\":\"zz\"}"), "InvalidNextToken", "The service returned an error: the NextToken is not valid.");
    }

    @Test
    void theAlarmsFileKeepsAlarmsStateAndHistory(@TempDir Path dir) throws Exception {
        MetricReader reader = new MetricReader(new MetricHistory(0), new CustomMetrics(10, 10), clock);
        Path file = dir.resolve(Alarms.FILE_NAME);
        Alarms alarms = new Alarms(reader, clock, file, 10, Alarms.INLINE);
        alarms.load();
        alarms.put(ACCOUNT, "kept", JsonCalls.JSON.readTree("{\"Namespace\":\"App\",\"MetricName\":\"Depth\",\"Statistic\":\"Sum\",\"Period\":60,"
                + "\"EvaluationPeriods\":1,\"Threshold\":0,\"ComparisonOperator\":\"GreaterThanThreshold\",\"TreatMissingData\":\"breaching\","
                + "\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}"));
        clock.advanceSeconds(60);
        alarms.evaluateDue();
        Alarms again = new Alarms(reader, clock, file, 10, Alarms.INLINE);
        again.load();
        MetricAlarm kept = again.find(ACCOUNT, "kept");
        assertThat(kept.state).isEqualTo("ALARM");
        assertThat(kept.rule.treatMissingData()).isEqualTo("breaching");
        assertThat(kept.tags).containsEntry("k", "v");
        assertThat(again.history(ACCOUNT)).extracting(AlarmHistoryItem::type).containsExactly("ConfigurationUpdate", "StateUpdate");
        assertThat(new String(java.nio.file.Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1)).contains("\"kept\"");
    }
}
