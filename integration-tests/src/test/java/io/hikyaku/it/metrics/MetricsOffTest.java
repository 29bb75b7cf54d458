package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.server.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * {@code --metrics off}: SQS works as usual, GET /metrics answers 404, and the CloudWatch API answers
 * with no datapoints and no metrics, even after traffic and sampled minutes.
 */
class MetricsOffTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected ServerConfig configure(ServerConfig defaults) {
        return defaults.withMetrics(false);
    }

    @Test
    void sqsWorksAndMetricsAreNotServed() throws Exception {
        String name = unique("off");
        String url = createQueue(name);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("one"));
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("a").messageBody("two").build(),
                SendMessageBatchRequestEntry.builder().id("b").messageBody("three").build()));
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
        assertThat(got).extracting(Message::body).containsExactlyInAnyOrder("one", "two", "three");
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        assertThat(sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(
                DeleteMessageBatchRequestEntry.builder().id("1").receiptHandle(got.get(1).receiptHandle()).build(),
                DeleteMessageBatchRequestEntry.builder().id("2").receiptHandle(got.get(2).receiptHandle()).build()))
                .successful()).hasSize(2);
        assertThat(sqsV1.receiveMessage(url).getMessages()).isEmpty();

        RawHttp.Response metrics = http.get("/metrics");
        assertThat(metrics.status()).isEqualTo(404);
        assertThat(metrics.body()).contains("metrics are off");
        assertThat(server.metrics()).isNull();
        JsonNode root = JSON.readTree(http.get("/").body());
        assertThat(root.path("links").path("metrics").isNull()).isTrue();
        assertThat(root.path("links").path("health").asText()).isEqualTo("/health");
    }

    @Test
    void cloudWatchAnswersWithNoData() throws Exception {
        String name = unique("off-cw");
        String url = createQueue(name);
        long start = clock.millis() / 60_000 * 60;
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("x"));
        sqs.receiveMessage(b -> b.queueUrl(url));
        assertThat(server.cloudWatch().sampleNow()).isFalse();
        clock.advance(Duration.ofSeconds(120));
        assertThat(server.cloudWatch().sampleNow()).isFalse(); // nothing is sampled, whatever the clock says

        RawHttp.Response listed = cloudWatch("ListMetrics", "{\"Namespace\":\"AWS/SQS\"}");
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        assertThat(JSON.readTree(listed.body()).path("Metrics")).isEmpty();

        RawHttp.Response stats = cloudWatch("GetMetricStatistics", "{\"Namespace\":\"AWS/SQS\",\"MetricName\":\"NumberOfMessagesSent\","
                + "\"Dimensions\":[{\"Name\":\"QueueName\",\"Value\":\"" + name + "\"}],\"StartTime\":" + start
                + ",\"EndTime\":" + (start + 180) + ",\"Period\":60,\"Statistics\":[\"Sum\"]}");
        assertThat(stats.status()).as(stats.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(stats.body());
        assertThat(answer.path("Label").asText()).isEqualTo("NumberOfMessagesSent");
        assertThat(answer.path("Datapoints").isArray()).isTrue();
        assertThat(answer.path("Datapoints")).isEmpty();
    }

    /** A CloudWatch call in AWS JSON 1.0 (the AWS CLI's protocol for it). */
    private RawHttp.Response cloudWatch(String operation, String body) {
        return http.post("/", body.getBytes(StandardCharsets.UTF_8), "Content-Type", RawHttp.JSON_TYPE,
                "X-Amz-Target", "GraniteServiceVersion20100801." + operation);
    }
}
