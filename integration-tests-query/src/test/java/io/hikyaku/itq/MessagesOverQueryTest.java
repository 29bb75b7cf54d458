package io.hikyaku.itq;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.MessageAttributeValue;
import com.amazonaws.services.sqs.model.MessageSystemAttributeValue;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageBatchResult;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import io.hikyaku.itq.support.QueryTestBase;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Messages over Query/XML: message and system attributes with the MD5 digests SDK v1 verifies on
 * send and receive (a wrong digest makes the SDK throw), attribute name filters, per-entry batch
 * failures, delays and visibility on the fake clock, and a long poll woken by a send.
 */
class MessagesOverQueryTest extends QueryTestBase {

    private String queue(String prefix, Map<String, String> attributes) {
        return sqs.createQueue(new CreateQueueRequest(unique(prefix)).withAttributes(attributes)).getQueueUrl();
    }

    @Test
    void messageAttributesOfEveryTypeRoundTripWithVerifiedDigests() {
        String url = queue("attrs", Map.of());
        Map<String, MessageAttributeValue> attrs = new LinkedHashMap<>();
        attrs.put("text", new MessageAttributeValue().withDataType("String").withStringValue("héllo ✓"));
        attrs.put("count", new MessageAttributeValue().withDataType("Number").withStringValue("-12.5e3"));
        attrs.put("blob", new MessageAttributeValue().withDataType("Binary")
                .withBinaryValue(ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 0xff})));
        attrs.put("order.id", new MessageAttributeValue().withDataType("String.uuid").withStringValue("a-b-c"));
        attrs.put("img", new MessageAttributeValue().withDataType("Binary.png").withBinaryValue(ByteBuffer.wrap(new byte[] {9})));
        SendMessageResult sent = sqs.sendMessage(new SendMessageRequest(url, "body ✓ with attributes")
                .withMessageAttributes(attrs)
                .withMessageSystemAttributes(Map.of("AWSTraceHeader", new MessageSystemAttributeValue()
                        .withDataType("String").withStringValue("Root=1-5759e988-bd862e3fe1be46a994272793"))));
        assertThat(sent.getMD5OfMessageAttributes()).hasSize(32);
        assertThat(sent.getMD5OfMessageSystemAttributes()).hasSize(32);

        Message all = sqs.receiveMessage(new ReceiveMessageRequest(url).withMessageAttributeNames("All")
                .withAttributeNames("All").withVisibilityTimeout(0)).getMessages().get(0);
        assertThat(all.getBody()).isEqualTo("body ✓ with attributes");
        assertThat(all.getMD5OfMessageAttributes()).isEqualTo(sent.getMD5OfMessageAttributes());
        assertThat(all.getMessageAttributes()).containsOnlyKeys("text", "count", "blob", "order.id", "img");
        assertThat(all.getMessageAttributes().get("text").getStringValue()).isEqualTo("héllo ✓");
        assertThat(all.getMessageAttributes().get("count").getDataType()).isEqualTo("Number");
        assertThat(all.getMessageAttributes().get("blob").getBinaryValue()).isEqualTo(ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 0xff}));
        assertThat(all.getMessageAttributes().get("order.id").getDataType()).isEqualTo("String.uuid");
        assertThat(all.getAttributes()).containsEntry("AWSTraceHeader", "Root=1-5759e988-bd862e3fe1be46a994272793")
                .containsEntry("SenderId", ACCOUNT); // no authentication: the sender's account

        // A subset: the digest covers only the attributes returned (the SDK recomputes and compares it).
        Message some = sqs.receiveMessage(new ReceiveMessageRequest(url).withMessageAttributeNames("order.*", "count")
                .withVisibilityTimeout(0)).getMessages().get(0);
        assertThat(some.getMessageAttributes()).containsOnlyKeys("order.id", "count");
        assertThat(some.getMD5OfMessageAttributes()).isNotEqualTo(sent.getMD5OfMessageAttributes());
        assertThat(some.getAttributes()).isEmpty();

        Message none = sqs.receiveMessage(new ReceiveMessageRequest(url).withVisibilityTimeout(0)).getMessages().get(0);
        assertThat(none.getMessageAttributes()).isEmpty();
        assertThat(none.getMD5OfMessageAttributes()).isNull();
        assertThat(none.getMD5OfBody()).isEqualTo(AllActionsOverQueryTest.md5("body ✓ with attributes"));
    }

    @Test
    void batchEntriesFailOneByOneWhileTheRestAreSent() {
        String url = queue("batch", Map.of("MaximumMessageSize", "1024"));
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        entries.add(new SendMessageBatchRequestEntry("ok", "fine"));
        entries.add(new SendMessageBatchRequestEntry("big", "x".repeat(1025)));
        entries.add(new SendMessageBatchRequestEntry("bad", "\u0001"));
        entries.add(new SendMessageBatchRequestEntry("attr", "with attribute").withMessageAttributes(
                Map.of("n", new MessageAttributeValue().withDataType("Number").withStringValue("7"))));
        SendMessageBatchResult r = sqs.sendMessageBatch(url, entries);
        assertThat(r.getSuccessful()).extracting(e -> e.getId()).containsExactlyInAnyOrder("ok", "attr");
        assertThat(r.getFailed()).hasSize(2).allSatisfy(f -> assertThat(f.getSenderFault()).isTrue());
        assertThat(r.getFailed()).filteredOn(f -> f.getId().equals("big")).singleElement().satisfies(f -> {
            assertThat(f.getCode()).isEqualTo("InvalidParameterValue");
            assertThat(f.getMessage()).isEqualTo("One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.");
        });
        assertThat(r.getFailed()).filteredOn(f -> f.getId().equals("bad")).singleElement()
                .satisfies(f -> assertThat(f.getCode()).isEqualTo("InvalidMessageContents"));
        assertThat(count(url, "ApproximateNumberOfMessages")).isEqualTo(2);
    }

    @Test
    void delaysAndVisibilityFollowTheClock() {
        String url = queue("timers", Map.of("DelaySeconds", "30", "VisibilityTimeout", "20"));
        sqs.sendMessage(new SendMessageRequest(url, "queue delay"));
        sqs.sendMessage(new SendMessageRequest(url, "own delay").withDelaySeconds(90));
        assertThat(count(url, "ApproximateNumberOfMessagesDelayed")).isEqualTo(2);
        assertThat(sqs.receiveMessage(url).getMessages()).isEmpty();

        advance(Duration.ofSeconds(30));
        List<Message> first = sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages();
        assertThat(first).extracting(Message::getBody).containsExactly("queue delay");
        assertThat(count(url, "ApproximateNumberOfMessagesNotVisible")).isEqualTo(1);

        advance(Duration.ofSeconds(20));
        Message again = sqs.receiveMessage(new ReceiveMessageRequest(url).withAttributeNames("ApproximateReceiveCount"))
                .getMessages().get(0);
        assertThat(again.getBody()).isEqualTo("queue delay");
        assertThat(again.getAttributes()).containsEntry("ApproximateReceiveCount", "2");
        assertThat(again.getReceiptHandle()).isNotEqualTo(first.get(0).getReceiptHandle());
        sqs.deleteMessage(url, again.getReceiptHandle());

        advance(Duration.ofSeconds(40));
        assertThat(sqs.receiveMessage(url).getMessages()).extracting(Message::getBody).containsExactly("own delay");
    }

    @Test
    void aLongPollReturnsAsSoonAsAMessageArrives() throws Exception {
        String url = queue("poll", Map.of());
        CompletableFuture<List<Message>> poll = CompletableFuture.supplyAsync(() ->
                sqs.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(20)).getMessages());
        Thread.sleep(300);
        assertThat(poll).isNotDone();
        long start = System.nanoTime();
        sqs.sendMessage(url, "wake up");
        assertThat(poll.get(10, TimeUnit.SECONDS)).extracting(Message::getBody).containsExactly("wake up");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aUtf8BodyKeepsItsBytes() {
        String url = queue("utf8", Map.of());
        String body = "日本語 \uD83D\uDE80 tab\t newline\n cr\r";
        SendMessageResult sent = sqs.sendMessage(url, body);
        assertThat(sent.getMD5OfMessageBody()).isEqualTo(AllActionsOverQueryTest.md5(body));
        Message m = sqs.receiveMessage(url).getMessages().get(0);
        assertThat(m.getBody().getBytes(StandardCharsets.UTF_8)).isEqualTo(body.getBytes(StandardCharsets.UTF_8));
    }

    private int count(String url, String attribute) {
        return Integer.parseInt(sqs.getQueueAttributes(url, List.of(attribute)).getAttributes().get(attribute));
    }
}
