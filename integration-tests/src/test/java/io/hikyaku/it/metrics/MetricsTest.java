package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * GET /metrics through the real server, driven by the AWS SDK for Java v2 with known traffic: every
 * per-queue value is checked against what was sent, received, deleted and moved.
 */
class MetricsTest extends SqsTestBase {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private PrometheusText scrape() {
        return PrometheusText.parse(get("/metrics", "text/plain").body());
    }

    private HttpResponse<String> get(String path, String accept) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(endpoint + path)).header("Accept", accept).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> q(String name) {
        return Map.of("account", ACCOUNT, "queue", name);
    }

    @Test
    void countsSendsReceivesDeletesAndEmptyReceivesOfKnownTraffic() {
        String name = unique("m-traffic");
        String url = createQueue(name, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "30"));
        for (int i = 0; i < 5; i++) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("body-1234")); // 9 bytes each
        }
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                SendMessageBatchRequestEntry.builder().id("a").messageBody("xy").build(),
                SendMessageBatchRequestEntry.builder().id("b").messageBody("xyz").build(),
                SendMessageBatchRequestEntry.builder().id("c").messageBody("wxyz").build()));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("later").delaySeconds(60));
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(6)).messages();
        assertThat(got).hasSize(6);
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(
                DeleteMessageBatchRequestEntry.builder().id("1").receiptHandle(got.get(1).receiptHandle()).build(),
                DeleteMessageBatchRequestEntry.builder().id("2").receiptHandle(got.get(2).receiptHandle()).build()));

        String empty = unique("m-empty");
        String emptyUrl = createQueue(empty);
        sqs.receiveMessage(b -> b.queueUrl(emptyUrl));
        sqs.receiveMessage(b -> b.queueUrl(emptyUrl).waitTimeSeconds(0));

        PrometheusText m = scrape();
        assertThat(m.value("hikyaku_sqs_number_of_messages_sent_total", q(name))).isEqualTo(9);
        assertThat(m.value("hikyaku_sqs_sent_message_size_bytes_count", q(name))).isEqualTo(9);
        assertThat(m.value("hikyaku_sqs_sent_message_size_bytes_sum", q(name))).isEqualTo(5 * 9 + 2 + 3 + 4 + 5);
        assertThat(m.value("hikyaku_sqs_sent_message_size_bytes_max", q(name))).isEqualTo(9);
        assertThat(m.value("hikyaku_sqs_number_of_messages_received_total", q(name))).isEqualTo(6);
        assertThat(m.value("hikyaku_sqs_number_of_messages_deleted_total", q(name))).isEqualTo(3);
        assertThat(m.value("hikyaku_sqs_number_of_empty_receives_total", q(name))).isEqualTo(0);
        assertThat(m.value("hikyaku_sqs_approximate_number_of_messages_visible", q(name))).isEqualTo(2);
        assertThat(m.value("hikyaku_sqs_approximate_number_of_messages_not_visible", q(name))).isEqualTo(3);
        assertThat(m.value("hikyaku_sqs_approximate_number_of_messages_delayed", q(name))).isEqualTo(1);
        assertThat(m.value("hikyaku_sqs_number_of_empty_receives_total", q(empty))).isEqualTo(2);
        assertThat(m.value("hikyaku_sqs_number_of_messages_received_total", q(empty))).isEqualTo(0);
        assertThat(m.has("hikyaku_sqs_approximate_number_of_groups_with_inflight_messages", q(name)))
                .as("a FIFO-only metric").isFalse();

        advance(Duration.ofSeconds(90));
        assertThat(scrape().value("hikyaku_sqs_approximate_age_of_oldest_message_seconds", q(name))).isEqualTo(90);
    }

    @Test
    void countsDeadLetterMovesAndMoveTaskProgress() {
        String dlqName = unique("m-dlq");
        String dlq = createQueue(dlqName);
        String srcName = unique("m-src");
        String src = createQueue(srcName, Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("p1"));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("p2"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src).maxNumberOfMessages(10).visibilityTimeout(0)).messages()).hasSize(2);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src).maxNumberOfMessages(10)).messages()).isEmpty();

        PrometheusText m = scrape();
        assertThat(m.value("hikyaku_sqs_messages_moved_to_dead_letter_queue_total",
                Map.of("queue", srcName, "dead_letter_queue", dlqName))).isEqualTo(2);
        assertThat(m.value("hikyaku_sqs_approximate_number_of_messages_visible", q(dlqName))).isEqualTo(2);
        // moves are not sends: the dead-letter queue's NumberOfMessagesSent stays absent or 0
        assertThat(m.has("hikyaku_sqs_number_of_messages_sent_total", q(dlqName))).isFalse();

        sqs.startMessageMoveTask(b -> b.sourceArn(arn(dlqName)).maxNumberOfMessagesPerSecond(1));
        advance(Duration.ofSeconds(5));
        PrometheusText after = scrape();
        Map<String, String> task = Map.of("source", dlqName, "status", "COMPLETED");
        assertThat(after.value("hikyaku_sqs_move_task_messages_moved", task)).isEqualTo(2);
        assertThat(after.value("hikyaku_sqs_move_task_messages_to_move", task)).isEqualTo(2);
        assertThat(after.value("hikyaku_sqs_messages_moved_by_task_total",
                Map.of("queue", dlqName, "destination", srcName))).isEqualTo(2);
    }

    @Test
    void fifoDeduplicationAndGroupsWithInflightMessages() {
        String name = uniqueFifo("m-fifo");
        String url = createFifoQueue(name, Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("a").messageGroupId("g1").messageDeduplicationId("d1"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("a").messageGroupId("g1").messageDeduplicationId("d1"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("b").messageGroupId("g2").messageDeduplicationId("d2"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("c").messageGroupId("g3").messageDeduplicationId("d3"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(2)).messages()).hasSize(2);

        PrometheusText m = scrape();
        assertThat(m.value("hikyaku_sqs_number_of_deduplicated_sent_messages_total", q(name))).isEqualTo(1);
        assertThat(m.value("hikyaku_sqs_approximate_number_of_groups_with_inflight_messages", q(name))).isEqualTo(2);
        assertThat(m.value("hikyaku_sqs_approximate_number_of_messages_visible", q(name))).isEqualTo(1);
    }

    @Test
    void activeConsumersAndBacklogPerConsumerOverTheLastMinute() {
        String name = unique("m-consumers");
        String url = createQueue(name);
        SqsClient second = v2Client("SECONDKEY");
        sqs.receiveMessage(b -> b.queueUrl(url));
        sqs.receiveMessage(b -> b.queueUrl(url)); // the same receiver again
        second.receiveMessage(b -> b.queueUrl(url));
        for (int i = 0; i < 6; i++) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("work"));
        }
        PrometheusText m = scrape();
        assertThat(m.value("hikyaku_sqs_active_consumers", q(name))).isEqualTo(2);
        assertThat(m.value("hikyaku_sqs_backlog_per_active_consumer", q(name))).isEqualTo(3);

        advance(Duration.ofSeconds(61));
        PrometheusText later = scrape();
        assertThat(later.value("hikyaku_sqs_active_consumers", q(name))).isEqualTo(0);
        assertThat(later.value("hikyaku_sqs_backlog_per_active_consumer", q(name))).isEqualTo(6);
    }

    @Test
    void requestsByActionProtocolAndOutcomeAndErrorsByCode() {
        PrometheusText before = scrape();
        double gets = before.has("hikyaku_requests_total", Map.of("action", "GetQueueUrl", "outcome", "client_error"))
                ? before.value("hikyaku_requests_total", Map.of("action", "GetQueueUrl", "protocol", "json", "outcome", "client_error")) : 0;
        for (int i = 0; i < 3; i++) {
            try {
                sqs.getQueueUrl(b -> b.queueName("no-such-queue"));
            } catch (QueueDoesNotExistException expected) {
                // counted below
            }
        }
        sqsV1.listQueues();
        PrometheusText m = scrape();
        assertThat(m.value("hikyaku_requests_total", Map.of("action", "GetQueueUrl", "protocol", "json", "outcome", "client_error")))
                .isEqualTo(gets + 3);
        assertThat(m.value("hikyaku_request_errors_total", Map.of("action", "GetQueueUrl", "code", "QueueDoesNotExist")))
                .isGreaterThanOrEqualTo(3);
        assertThat(m.value("hikyaku_request_duration_seconds_count", Map.of("action", "GetQueueUrl", "protocol", "json")))
                .isGreaterThanOrEqualTo(3);
        assertThat(m.has("hikyaku_request_duration_seconds_bucket", Map.of("action", "GetQueueUrl", "le", "0.001"))).isTrue();
        assertThat(m.types).containsEntry("hikyaku_request_duration_seconds", "histogram");
        // server and JVM metrics are there
        assertThat(m.value("hikyaku_connections_open", Map.of())).isGreaterThanOrEqualTo(1);
        assertThat(m.value("hikyaku_long_polls_parked", Map.of())).isEqualTo(0);
        assertThat(m.value("hikyaku_store_healthy", Map.of())).isEqualTo(1);
        assertThat(m.has("jvm_memory_used_bytes", Map.of("area", "heap"))).isTrue();
        assertThat(m.has("jvm_gc_pause_seconds_count", Map.of()) || m.has("jvm_gc_memory_allocated_bytes_total", Map.of())).isTrue();
    }

    @Test
    void openMetricsWhenAskedAndARootDocumentInsteadOfAnError() throws IOException {
        HttpResponse<String> open = get("/metrics", "application/openmetrics-text; version=1.0.0");
        assertThat(open.statusCode()).isEqualTo(200);
        assertThat(open.headers().firstValue("content-type").orElseThrow()).startsWith("application/openmetrics-text");
        assertThat(open.body()).endsWith("# EOF\n");

        HttpResponse<String> root = get("/", "*/*");
        assertThat(root.statusCode()).isEqualTo(200);
        JsonNode doc = new ObjectMapper().readTree(root.body());
        assertThat(doc.get("service").asText()).isEqualTo("hikyaku");
        assertThat(doc.get("status").asText()).isEqualTo("ok");
        assertThat(doc.get("version").asText()).isNotBlank();
        assertThat(doc.at("/links/metrics").asText()).isEqualTo("/metrics");
    }
}
