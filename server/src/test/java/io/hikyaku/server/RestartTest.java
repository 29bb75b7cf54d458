package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A durable server closed and started again on the same directory keeps queues, messages and their state. */
class RestartTest {

    @TempDir
    Path dir;

    static final String POLICY = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\","
            + "\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}]}";

    @Test
    void queuesMessagesReceiptHandlesDedupAndSequenceNumbersSurviveARestart() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data")).withDurability(DurabilityMode.FSYNC);
        String std;
        String fifo;
        String dlq;
        String receipt;
        String receivedBody;
        String firstFifoId;
        BigInteger lastSequence;
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            dlq = create(sqs, "dead", JsonSqs.input().put("MessageRetentionPeriod", "1209600"));
            String dlqArn = sqs.attributes(dlq).path("QueueArn").asText();
            std = create(sqs, "plain", JsonSqs.input().put("VisibilityTimeout", "45").put("DelaySeconds", "0")
                    .put("Policy", POLICY).put("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"3\"}"));
            fifo = create(sqs, "ordered.fifo", JsonSqs.input().put("FifoQueue", "true").put("ContentBasedDeduplication", "false"));
            ObjectNode tags = JsonSqs.input().put("QueueUrl", std);
            tags.putObject("Tags").put("team", "shop").put("env", "test");
            sqs.call("TagQueue", tags);

            for (int i = 0; i < 3; i++) {
                sqs.send(std, "visible-" + i);
            }
            sqs.call("SendMessage", JsonSqs.input().put("QueueUrl", std).put("MessageBody", "later").put("DelaySeconds", 600));
            JsonNode got = sqs.receive(std, 1);
            receipt = got.get(0).path("ReceiptHandle").asText();
            receivedBody = got.get(0).path("Body").asText();

            firstFifoId = fifoSend(sqs, fifo, "one", "d1").path("MessageId").asText();
            lastSequence = new BigInteger(fifoSend(sqs, fifo, "two", "d2").path("SequenceNumber").asText());
        }

        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            assertThat(sqs.call("ListQueues", JsonSqs.input()).path("QueueUrls")).extracting(JsonNode::asText)
                    .containsExactlyInAnyOrder(std, fifo, dlq);
            JsonNode a = sqs.attributes(std);
            assertThat(a.path("VisibilityTimeout").asText()).isEqualTo("45");
            assertThat(JsonSqs.JSON.readTree(a.path("Policy").asText())).isEqualTo(JsonSqs.JSON.readTree(POLICY));
            assertThat(a.path("RedrivePolicy").asText()).contains(":dead").contains("3");
            assertThat(sqs.attributes(dlq).path("MessageRetentionPeriod").asText()).isEqualTo("1209600");
            assertThat(sqs.attributes(fifo).path("FifoQueue").asText()).isEqualTo("true");
            JsonNode tags = sqs.call("ListQueueTags", JsonSqs.input().put("QueueUrl", std)).path("Tags");
            assertThat(tags.path("team").asText()).isEqualTo("shop");
            assertThat(tags.path("env").asText()).isEqualTo("test");

            assertThat(a.path("ApproximateNumberOfMessages").asText()).isEqualTo("2");
            assertThat(a.path("ApproximateNumberOfMessagesNotVisible").asText()).isEqualTo("1");
            assertThat(a.path("ApproximateNumberOfMessagesDelayed").asText()).isEqualTo("1");
            sqs.call("DeleteMessage", JsonSqs.input().put("QueueUrl", std).put("ReceiptHandle", receipt));
            assertThat(sqs.attribute(std, "ApproximateNumberOfMessagesNotVisible")).isZero();
            List<String> stillVisible = new java.util.ArrayList<>(List.of("visible-0", "visible-1", "visible-2"));
            stillVisible.remove(receivedBody);
            assertThat(sqs.receive(std, 10)).extracting(m -> m.path("Body").asText()).containsExactlyInAnyOrderElementsOf(stillVisible);

            JsonNode duplicate = fifoSend(sqs, fifo, "one again", "d1");
            assertThat(duplicate.path("MessageId").asText()).isEqualTo(firstFifoId); // dedup window kept
            assertThat(sqs.attribute(fifo, "ApproximateNumberOfMessages")).isEqualTo(2);
            BigInteger next = new BigInteger(fifoSend(sqs, fifo, "three", "d3").path("SequenceNumber").asText());
            assertThat(next).isGreaterThan(lastSequence);
            assertThat(sqs.receive(fifo, 10)).extracting(m -> m.path("Body").asText()).containsExactly("one", "two", "three");
        }
    }

    private static String create(JsonSqs sqs, String name, ObjectNode attributes) throws Exception {
        ObjectNode in = JsonSqs.input().put("QueueName", name);
        in.set("Attributes", attributes);
        return sqs.call("CreateQueue", in).path("QueueUrl").asText();
    }

    private static JsonNode fifoSend(JsonSqs sqs, String url, String body, String dedupId) throws Exception {
        return sqs.call("SendMessage", JsonSqs.input().put("QueueUrl", url).put("MessageBody", body)
                .put("MessageGroupId", "g").put("MessageDeduplicationId", dedupId));
    }
}
