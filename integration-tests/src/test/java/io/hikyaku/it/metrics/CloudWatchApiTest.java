package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * The CloudWatch API on the SQS endpoint, driven by current boto3 (RPC v2 CBOR), Debian's boto3
 * (Query) and the AWS CLI (JSON 1.0), with known traffic in one minute of the server's test clock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CloudWatchApiTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void answersKnownTrafficInEveryProtocol() throws Exception {
        String name = unique("cw-traffic");
        String url = createQueue(name);
        String empty = unique("cw-empty");
        String emptyUrl = createQueue(empty);
        server.cloudWatch().sampleNow();
        long minute = clock.millis() / 60_000;
        for (int i = 0; i < 5; i++) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("body-1234")); // 9 bytes each
        }
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("a").messageBody("xy").build(),
                SendMessageBatchRequestEntry.builder().id("b").messageBody("xyz").build(),
                SendMessageBatchRequestEntry.builder().id("c").messageBody("wxyz").build()));
        // 300 s: the three left in flight stay so through both sampled minutes (no timer race with the sampler)
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(6).visibilityTimeout(300)).messages();
        assertThat(got).hasSize(6);
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(
                DeleteMessageBatchRequestEntry.builder().id("1").receiptHandle(got.get(1).receiptHandle()).build(),
                DeleteMessageBatchRequestEntry.builder().id("2").receiptHandle(got.get(2).receiptHandle()).build()));
        sqs.receiveMessage(b -> b.queueUrl(emptyUrl));
        sqs.receiveMessage(b -> b.queueUrl(emptyUrl));
        // The minute ends (its datapoints are recorded), then a quiet minute.
        clock.advance(Duration.ofSeconds(60 - clock.millis() / 1000 % 60));
        server.cloudWatch().sampleNow();
        clock.advance(Duration.ofSeconds(60));
        server.cloudWatch().sampleNow();

        long start = minute * 60;
        long end = start + 120;
        for (String python : pythons()) {
            JsonNode out = run(List.of(python, script().toString(), endpoint, name, empty, Long.toString(start), Long.toString(end)));
            String protocol = out.get("protocol").asText();
            assertThat(protocol).as(python).isIn("smithy-rpc-v2-cbor", "query");
            assertThat(point(out, "sent", 0)).containsEntry("Timestamp", (double) start).containsEntry("Sum", 8.0);
            assertThat(point(out, "sent", 1)).containsEntry("Sum", 0.0);
            assertThat(point(out, "sent120", 0)).containsEntry("Sum", 8.0).containsEntry("SampleCount", 2.0)
                    .containsEntry("Average", 4.0).containsEntry("Minimum", 0.0).containsEntry("Maximum", 8.0);
            assertThat(point(out, "size", 0)).containsEntry("Sum", 54.0).containsEntry("SampleCount", 8.0)
                    .containsEntry("Minimum", 2.0).containsEntry("Maximum", 9.0).containsEntry("Average", 6.75)
                    .containsEntry("Unit", "Bytes");
            assertThat(out.get("size")).hasSize(1);
            assertThat(point(out, "received", 0)).containsEntry("Sum", 6.0);
            assertThat(point(out, "deleted", 0)).containsEntry("Sum", 3.0);
            assertThat(point(out, "visible", 0)).containsEntry("Maximum", 2.0);
            assertThat(point(out, "notVisible", 0)).containsEntry("Maximum", 3.0);
            assertThat(point(out, "emptyReceives", 0)).containsEntry("Sum", 2.0);
            assertThat(out.get("otherNamespace")).isEmpty();
            JsonNode data = out.get("data");
            assertThat(data.get(0).get("Id").asText()).isEqualTo("sent");
            assertThat(data.get(0).get("Values").toString()).isEqualTo("[8.0,0.0]");
            assertThat(data.get(0).get("Timestamps").get(0).asDouble()).isEqualTo((double) start);
            assertThat(data.get(1).get("Label").asText()).isEqualTo("backlog");
            assertThat(data.get(1).get("Values").toString()).isEqualTo("[2.0,2.0]");
            assertThat(texts(out.get("listed"))).containsExactly("ApproximateAgeOfOldestMessage",
                    "ApproximateNumberOfMessagesDelayed", "ApproximateNumberOfMessagesNotVisible",
                    "ApproximateNumberOfMessagesVisible", "NumberOfEmptyReceives", "NumberOfMessagesDeleted",
                    "NumberOfMessagesReceived", "NumberOfMessagesSent", "SentMessageSize");
            assertThat(texts(out.get("listedSentQueues"))).contains(name, empty);
            assertError(out, "errPeriod", "InvalidParameterValue", "The parameter Period must be a multiple of 60.");
            assertError(out, "errNoStatistics", "InvalidParameterCombination",
                    "Must specify either Statistics or ExtendedStatistics, but not both.");
            assertError(out, "errRange", "InvalidParameterValue", "The parameter StartTime must be less than the parameter EndTime.");
            assertError(out, "errMissing", "MissingParameter", "The parameter MetricName is required.");
            assertThat(out.get("errExpression").get("code").asText()).isEqualTo("ValidationError");
            assertThat(out.get("errExpression").get("message").asText()).isEqualTo("Error in expression e1: Unknown function PERCENTILE.");
        }

        // The AWS CLI (v1 on current botocore picks AWS JSON 1.0 from the model's protocol list).
        JsonNode cli = run(List.of("aws", "cloudwatch", "get-metric-statistics", "--endpoint-url", endpoint,
                "--namespace", "AWS/SQS", "--metric-name", "NumberOfMessagesReceived",
                "--dimensions", "Name=QueueName,Value=" + name, "--start-time", Long.toString(start),
                "--end-time", Long.toString(end), "--period", "120", "--statistics", "Sum", "SampleCount", "--output", "json"));
        assertThat(cli.get("Label").asText()).isEqualTo("NumberOfMessagesReceived");
        assertThat(cli.get("Datapoints")).hasSize(1);
        assertThat(cli.get("Datapoints").get(0).get("Sum").asDouble()).isEqualTo(6.0);
        assertThat(cli.get("Datapoints").get(0).get("SampleCount").asDouble()).isEqualTo(2.0);
        JsonNode listed = run(List.of("aws", "cloudwatch", "list-metrics", "--endpoint-url", endpoint, "--namespace", "AWS/SQS",
                "--metric-name", "NumberOfMessagesSent", "--dimensions", "Name=QueueName,Value=" + name, "--output", "json"));
        assertThat(listed.get("Metrics")).hasSize(1);
        assertThat(listed.get("Metrics").get(0).get("Dimensions").get(0).get("Value").asText()).isEqualTo(name);

        // SQS requests are unaffected by the CloudWatch route.
        assertThat(sqs.getQueueUrl(b -> b.queueName(name)).queueUrl()).isEqualTo(url);
    }

    private static void assertError(JsonNode out, String key, String code, String message) {
        JsonNode e = out.get(key);
        assertThat(e).as(key).isNotNull();
        assertThat(e.get("code").asText()).as(key).isEqualTo(code);
        assertThat(e.get("message").asText()).as(key).isEqualTo(message);
        assertThat(e.get("status").asInt()).as(key).isEqualTo(400);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> point(JsonNode out, String key, int i) {
        JsonNode points = out.get(key);
        assertThat(points.size()).as(key).isGreaterThan(i);
        return JSON.convertValue(points.get(i), Map.class);
    }

    private static List<String> texts(JsonNode array) {
        List<String> l = new ArrayList<>();
        array.forEach(n -> l.add(n.asText()));
        return l;
    }

    /** Current boto3 (python3 on the PATH, CBOR) and Debian's boto3 (/usr/bin/python3, Query). */
    private static List<String> pythons() {
        List<String> p = new ArrayList<>(List.of("python3"));
        if (Files.isExecutable(Path.of("/usr/bin/python3"))) {
            p.add("/usr/bin/python3");
        }
        return p;
    }

    private static Path script() throws IOException {
        Path p = Files.createTempFile("cw_client", ".py");
        p.toFile().deleteOnExit();
        try (var in = CloudWatchApiTest.class.getResourceAsStream("/cloudwatch/cw_client.py")) {
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    /** With auth none, a 12-digit access key id selects the account for the CloudWatch API as for SQS. */
    @Test
    void aTwelveDigitKeySelectsTheAccount() throws Exception {
        String name = unique("cw-account");
        String other = "111122223333";
        v2Client(other).createQueue(b -> b.queueName(name));
        v2Client(other).sendMessage(b -> b.queueUrl(endpoint + "/" + other + "/" + name).messageBody("x"));
        server.cloudWatch().sampleNow();
        clock.advance(Duration.ofSeconds(60));
        server.cloudWatch().sampleNow();
        List<String> listMetrics = List.of("aws", "cloudwatch", "list-metrics", "--endpoint-url", endpoint, "--namespace",
                "AWS/SQS", "--metric-name", "NumberOfMessagesSent", "--dimensions", "Name=QueueName,Value=" + name,
                "--output", "json");
        assertThat(run(listMetrics, other).get("Metrics")).hasSize(1);
        assertThat(run(listMetrics).get("Metrics")).isEmpty(); // the default account has no such queue
    }

    private static JsonNode run(List<String> command) throws Exception {
        return run(command, "test");
    }

    private static JsonNode run(List<String> command, String accessKeyId) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("AWS_ACCESS_KEY_ID", accessKeyId);
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "test");
        pb.environment().put("AWS_DEFAULT_REGION", "us-east-1");
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        byte[] stdout = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
        return JSON.readTree(new String(stdout, StandardCharsets.UTF_8));
    }
}
