package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Deleting the in-flight message of a FIFO group unlocks it: a parked receive gets the next one at once. */
class FifoUnlockWakeTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    private String fifoWithLockedGroup() {
        String url = sqs.createQueue("lock.fifo", "{\"FifoQueue\":\"true\",\"ContentBasedDeduplication\":\"true\"}");
        send(url, "a1");
        return url;
    }

    private void send(String url, String body) {
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + body + "\",\"MessageGroupId\":\"A\"}");
    }

    private String receiveHandle(String url) {
        ObjectNode got = sqs.receive(url, null);
        assertThat(got.get("Messages").get(0).get("Body").asText()).isEqualTo("a1");
        return got.get("Messages").get(0).get("ReceiptHandle").asText();
    }

    private CompletableFuture<ObjectNode> parkAfterSecondMessage(String url) {
        CompletableFuture<ObjectNode> waiting = sqs.start("ReceiveMessage",
                "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}");
        send(url, "a2"); // group A is locked by a1: not delivered yet
        assertThat(waiting).isNotDone();
        return waiting;
    }

    @Test
    void deleteMessageWakesAParkedReceive() {
        String url = fifoWithLockedGroup();
        String handle = receiveHandle(url);
        CompletableFuture<ObjectNode> waiting = parkAfterSecondMessage(url);
        sqs.call("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}");
        assertThat(ServiceHarness.await(waiting).get("Messages").get(0).get("Body").asText()).isEqualTo("a2");
    }

    @Test
    void deleteMessageBatchWakesAParkedReceive() {
        String url = fifoWithLockedGroup();
        String handle = receiveHandle(url);
        CompletableFuture<ObjectNode> waiting = parkAfterSecondMessage(url);
        ObjectNode result = sqs.call("DeleteMessageBatch", "{\"QueueUrl\":\"" + url
                + "\",\"Entries\":[{\"Id\":\"d\",\"ReceiptHandle\":\"" + handle + "\"}]}");
        assertThat(result.get("Successful")).hasSize(1);
        assertThat(ServiceHarness.await(waiting).get("Messages").get(0).get("Body").asText()).isEqualTo("a2");
    }
}
