package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MoveTasksEndToEndTest {

    private static final String DLQ_ARN = "arn:aws:sqs:us-east-1:000000000000:dlq";

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    @Test
    void redriveBackToTheSourceWakesItsWaiters() {
        String dlq = sqs.createQueue("dlq", null);
        String src = sqs.createQueue("src", "{\"RedrivePolicy\":\"{\\\"deadLetterTargetArn\\\":\\\"" + DLQ_ARN
                + "\\\",\\\"maxReceiveCount\\\":1}\"}");
        sqs.send(src, "poison");
        assertThat(sqs.receive(src, "\"VisibilityTimeout\":1").get("Messages")).hasSize(1);
        sqs.clock.advance(Duration.ofSeconds(2));
        assertThat(sqs.receive(src, null).has("Messages")).isFalse(); // moved to the DLQ
        JsonNode inDlq = sqs.receive(dlq, "\"VisibilityTimeout\":0,\"MessageSystemAttributeNames\":[\"DeadLetterQueueSourceArn\"]")
                .get("Messages").get(0);
        assertThat(inDlq.get("Attributes").get("DeadLetterQueueSourceArn").asText())
                .isEqualTo("arn:aws:sqs:us-east-1:000000000000:src");

        CompletableFuture<ObjectNode> waiting = sqs.start("ReceiveMessage", "{\"QueueUrl\":\"" + src + "\",\"WaitTimeSeconds\":20}");
        ObjectNode started = sqs.call("StartMessageMoveTask", "{\"SourceArn\":\"" + DLQ_ARN + "\"}");
        assertThat(started.get("TaskHandle").asText()).isNotEmpty();
        sqs.clock.advance(Duration.ofSeconds(1));
        assertThat(ServiceHarness.await(waiting).get("Messages").get(0).get("Body").asText()).isEqualTo("poison");

        ObjectNode tasks = sqs.call("ListMessageMoveTasks", "{\"SourceArn\":\"" + DLQ_ARN + "\",\"MaxResults\":10}");
        JsonNode task = tasks.get("Results").get(0);
        assertThat(task.get("SourceArn").asText()).isEqualTo(DLQ_ARN);
        assertThat(task.get("StartedTimestamp").isIntegralNumber()).isTrue();
    }

    @Test
    void aRedriveAtReceiveTimeWakesTheDeadLetterQueuesWaiters() {
        String dlq = sqs.createQueue("dlq", null);
        String src = sqs.createQueue("src", "{\"RedrivePolicy\":\"{\\\"deadLetterTargetArn\\\":\\\"" + DLQ_ARN
                + "\\\",\\\"maxReceiveCount\\\":1}\"}");
        sqs.send(src, "poison");
        assertThat(sqs.receive(src, "\"VisibilityTimeout\":0").get("Messages")).hasSize(1);
        CompletableFuture<ObjectNode> dlqWaiter = sqs.start("ReceiveMessage", "{\"QueueUrl\":\"" + dlq + "\",\"WaitTimeSeconds\":20}");
        assertThat(dlqWaiter).isNotDone();
        assertThat(sqs.receive(src, null).has("Messages")).isFalse(); // this receive moves it to the DLQ
        assertThat(ServiceHarness.await(dlqWaiter).get("Messages").get(0).get("Body").asText()).isEqualTo("poison");
    }

    @Test
    void errors() {
        sqs.createQueue("plain", null);
        ApiException notDlq = sqs.error("StartMessageMoveTask", "{\"SourceArn\":\"arn:aws:sqs:us-east-1:000000000000:plain\"}");
        assertThat(notDlq.errorType()).isEqualTo("InvalidParameterValue");
        ApiException badHandle = sqs.error("CancelMessageMoveTask", "{\"TaskHandle\":\"!!\"}");
        assertThat(badHandle.errorType()).isEqualTo("InvalidParameterValue");
        ApiException rate = sqs.error("StartMessageMoveTask",
                "{\"SourceArn\":\"" + DLQ_ARN + "\",\"MaxNumberOfMessagesPerSecond\":501}");
        assertThat(rate.getMessage()).isEqualTo(
                "Value 501 for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: Must be between 1 and 500, if provided.");
        ApiException missing = sqs.error("ListMessageMoveTasks", "{}");
        assertThat(missing.errorType()).isEqualTo("MissingRequiredParameterException");
    }
}
