package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * PutMetricData, metric math and the alarm operations driven by current boto3 (RPC v2 CBOR), Debian's
 * boto3 (Query) and the AWS CLI (AWS JSON 1.0) against the real server.
 */
class CloudWatchAlarmsClientsTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void boto3InEachProtocol() throws Exception {
        List<String> pythons = new ArrayList<>(List.of("python3"));
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
            pythons.add("/usr/bin/python3");
        }
        for (String python : pythons) {
            String prefix = unique("py" + pythons.indexOf(python));
            JsonNode out = run(List.of(python, script().toString(), endpoint, prefix, Long.toString(clock.millis() / 1000)));
            String protocol = out.get("protocol").asText();
            assertThat(protocol).as(python).isIn("smithy-rpc-v2-cbor", "query");
            assertThat(out.get("backlog").toString()).as(protocol).isEqualTo("[{\"SampleCount\":2.0,\"Sum\":40.0,\"Maximum\":30.0,\"Unit\":\"None\"}]");
            assertThat(out.get("listed").toString()).isEqualTo("[\"Backlog\",\"Latency\",\"RunningWorkers\"]");
            assertThat(out.get("math").toString()).as(protocol).isEqualTo("[{\"Id\":\"e1\",\"Label\":\"per worker\",\"Values\":[5.0]},"
                    + "{\"Id\":\"e2\",\"Label\":\"e2\",\"Values\":[24.0]}]");
            assertError(out, "errFunction", "ValidationError", "Error in expression e1: Unknown function RATE.");
            assertError(out, "errNamespace", "InvalidParameterValue", "The value AWS/SQS for parameter Namespace is invalid.");
            assertError(out, "errBoth", "InvalidParameterCombination",
                    "The parameters MetricData.member.1.Value and MetricData.member.1.StatisticValues are mutually exclusive and you have specified both.");
            JsonNode alarms = out.get("alarms");
            assertThat(alarms).hasSize(2);
            JsonNode math = alarms.get(0);
            assertThat(math.get("AlarmName").asText()).isEqualTo(prefix + "-backlog");
            assertThat(math.get("StateValue").asText()).isEqualTo("INSUFFICIENT_DATA");
            assertThat(math.get("StateReason").asText()).isEqualTo("Unchecked: Initial alarm creation");
            assertThat(math.get("EvaluationPeriods").asInt()).isEqualTo(2);
            assertThat(math.get("DatapointsToAlarm").asInt()).isEqualTo(1);
            assertThat(math.get("Threshold").asDouble()).isEqualTo(5.0);
            assertThat(math.get("TreatMissingData").asText()).isEqualTo("notBreaching");
            assertThat(math.get("ActionsEnabled").asBoolean()).isTrue();
            assertThat(math.get("Metrics").asInt()).isEqualTo(3);
            assertThat(math.get("AlarmArn").asText()).isEqualTo("arn:aws:cloudwatch:us-east-1:000000000000:alarm:" + prefix + "-backlog");
            assertThat(alarms.get(1).get("Statistic").asText()).isEqualTo("Minimum");
            assertThat(alarms.get(1).get("Period").asInt()).isEqualTo(60);
            assertThat(out.get("paged").toString()).isEqualTo("[1,true]");
            assertThat(out.get("forMetric").toString()).isEqualTo("[\"" + prefix + "-workers\"]");
            assertThat(out.get("afterSet").toString()).isEqualTo("[\"ALARM\",\"drill\",false]");
            assertThat(out.get("history").get(0).asText()).startsWith("Action: Failed to execute action arn:aws:sns:us-east-1:000000000000:nowhere");
            assertThat(texts(out.get("history"))).contains("StateUpdate: Alarm updated from INSUFFICIENT_DATA to ALARM",
                    "ConfigurationUpdate: Alarm \"" + prefix + "-backlog\" created");
            assertThat(out.get("tags").toString()).isEqualTo("[{\"Key\":\"env\",\"Value\":\"test\"}]");
            assertError(out, "errBand", "InvalidParameterValue", "The value LessThanLowerOrGreaterThanUpperThreshold for parameter "
                    + "ComparisonOperator is not supported by this server: anomaly detection bands are not served.");
            assertThat(out.get("errState").get("code").asText()).isEqualTo("ResourceNotFound");
            assertThat(out.get("errState").get("status").asInt()).isEqualTo(404);
            assertThat(out.get("left").asInt()).isZero();
        }
    }

    @Test
    void theAwsCli() throws Exception {
        String name = unique("cli-dlq");
        run(List.of("aws", "cloudwatch", "put-metric-alarm", "--endpoint-url", endpoint, "--alarm-name", name,
                "--namespace", "AWS/SQS", "--metric-name", "ApproximateNumberOfMessagesVisible",
                "--dimensions", "Name=QueueName,Value=orders-dlq", "--statistic", "Maximum", "--period", "60",
                "--evaluation-periods", "1", "--threshold", "0", "--comparison-operator", "GreaterThanThreshold",
                "--treat-missing-data", "notBreaching", "--alarm-actions", "arn:aws:sns:us-east-1:000000000000:ops-alerts"), false);
        JsonNode described = run(List.of("aws", "cloudwatch", "describe-alarms", "--endpoint-url", endpoint, "--alarm-names", name,
                "--output", "json"), true);
        JsonNode alarm = described.get("MetricAlarms").get(0);
        assertThat(alarm.get("AlarmName").asText()).isEqualTo(name);
        assertThat(alarm.get("Dimensions").get(0).get("Value").asText()).isEqualTo("orders-dlq");
        assertThat(alarm.get("StateValue").asText()).isEqualTo("INSUFFICIENT_DATA");
        assertThat(alarm.get("AlarmActions").get(0).asText()).isEqualTo("arn:aws:sns:us-east-1:000000000000:ops-alerts");
        run(List.of("aws", "cloudwatch", "put-metric-data", "--endpoint-url", endpoint, "--namespace", "Cli/Workers",
                "--metric-name", "RunningWorkers", "--dimensions", "Service=pool", "--value", "3", "--unit", "Count"), false);
        JsonNode listed = run(List.of("aws", "cloudwatch", "list-metrics", "--endpoint-url", endpoint, "--namespace", "Cli/Workers",
                "--output", "json"), true);
        assertThat(listed.get("Metrics").get(0).get("MetricName").asText()).isEqualTo("RunningWorkers");
        run(List.of("aws", "cloudwatch", "delete-alarms", "--endpoint-url", endpoint, "--alarm-names", name), false);
    }

    private static void assertError(JsonNode out, String key, String code, String message) {
        JsonNode e = out.get(key);
        assertThat(e).as(key).isNotNull();
        assertThat(e.get("code").asText()).as(key).isEqualTo(code);
        assertThat(e.get("message").asText()).as(key).isEqualTo(message);
        assertThat(e.get("status").asInt()).as(key).isEqualTo(400);
    }

    private static List<String> texts(JsonNode array) {
        List<String> l = new ArrayList<>();
        array.forEach(n -> l.add(n.asText()));
        return l;
    }

    private static Path script() throws IOException {
        Path p = Files.createTempFile("cw_alarms", ".py");
        p.toFile().deleteOnExit();
        try (var in = CloudWatchAlarmsClientsTest.class.getResourceAsStream("/cloudwatch/cw_alarms.py")) {
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    private static JsonNode run(List<String> command) throws Exception {
        return run(command, true);
    }

    private static JsonNode run(List<String> command, boolean json) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("AWS_ACCESS_KEY_ID", "test");
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "test");
        pb.environment().put("AWS_DEFAULT_REGION", "us-east-1");
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        byte[] stdout = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
        return json ? JSON.readTree(new String(stdout, StandardCharsets.UTF_8)) : null;
    }
}
