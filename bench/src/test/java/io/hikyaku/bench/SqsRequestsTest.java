package io.hikyaku.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.bench.client.SqsRequests;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SqsRequestsTest {
    private static JsonNode json(byte[] body) throws Exception {
        return SqsRequests.JSON.readTree(body);
    }

    @Test
    void sendMessageBatchHasEntriesWithIdsBodiesAndGroups() throws Exception {
        JsonNode n = json(SqsRequests.sendMessageBatch("http://q/1/a.fifo",
                List.of(new SqsRequests.Entry("e0", "b0", "g1"), new SqsRequests.Entry("e1", "b1", "g1"))));
        assertThat(n.path("QueueUrl").asText()).isEqualTo("http://q/1/a.fifo");
        assertThat(n.path("Entries")).hasSize(2);
        assertThat(n.path("Entries").get(1).path("Id").asText()).isEqualTo("e1");
        assertThat(n.path("Entries").get(1).path("MessageBody").asText()).isEqualTo("b1");
        assertThat(n.path("Entries").get(0).path("MessageGroupId").asText()).isEqualTo("g1");
    }

    @Test
    void standardEntriesCarryNoGroup() throws Exception {
        JsonNode n = json(SqsRequests.sendMessage("u", "body", null));
        assertThat(n.has("MessageGroupId")).isFalse();
        assertThat(n.path("MessageBody").asText()).isEqualTo("body");
    }

    @Test
    void receiveAndDeleteShapes() throws Exception {
        JsonNode r = json(SqsRequests.receiveMessage("u", 10, 20, 300));
        assertThat(r.path("MaxNumberOfMessages").asInt()).isEqualTo(10);
        assertThat(r.path("WaitTimeSeconds").asInt()).isEqualTo(20);
        assertThat(r.path("VisibilityTimeout").asInt()).isEqualTo(300);
        JsonNode d = json(SqsRequests.deleteMessageBatch("u", List.of("h0", "h1")));
        assertThat(d.path("Entries").get(0).path("Id").asText()).isEqualTo("d0");
        assertThat(d.path("Entries").get(1).path("ReceiptHandle").asText()).isEqualTo("h1");
    }

    @Test
    void createQueuePutsAttributesOnlyWhenGiven() throws Exception {
        assertThat(json(SqsRequests.createQueue("q", Map.of())).has("Attributes")).isFalse();
        JsonNode f = json(SqsRequests.createQueue("q.fifo", Map.of("FifoQueue", "true")));
        assertThat(f.path("Attributes").path("FifoQueue").asText()).isEqualTo("true");
    }

    @Test
    void getQueueUrlAndAttributesShapes() throws Exception {
        assertThat(json(SqsRequests.getQueueUrl("q")).path("QueueName").asText()).isEqualTo("q");
        JsonNode a = json(SqsRequests.getQueueAttributes("u", List.of("ApproximateNumberOfMessages")));
        assertThat(a.path("QueueUrl").asText()).isEqualTo("u");
        assertThat(a.path("AttributeNames").get(0).asText()).isEqualTo("ApproximateNumberOfMessages");
        assertThat(json(SqsRequests.queueOnly("u")).size()).isEqualTo(1);
    }
}
