package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/** FIFO queues: validation, order, deduplication, sequence numbers, group locking (behaviours 32-36, 43). */
class FifoTest extends SqsTestBase {

    private String fifo(Map<QueueAttributeName, String> extra) {
        return createFifoQueue(uniqueFifo("fifo"), extra);
    }

    private SendMessageResponse send(String url, String body, String group, String dedup) {
        return sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(group).messageDeduplicationId(dedup));
    }

    private List<String> receiveBodies(String url, int max) {
        return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max)).messages().stream().map(Message::body).toList();
    }

    /** Receives and deletes until empty (bounded), returning bodies in delivery order. */
    private List<String> drain(String url) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
            if (got.isEmpty()) {
                break;
            }
            for (Message m : got) {
                out.add(m.body());
                sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
            }
        }
        return out;
    }

    @Test
    void b32_invalidMessageDeduplicationId() {
        String url = fifo(Map.of());
        for (String bad : new String[] {"", "d".repeat(129), "has space"}) {
            assertV2Error(() -> send(url, "x", "g", bad), "InvalidParameterValue",
                    "Value " + bad + " for parameter MessageDeduplicationId is invalid. Reason: MessageDeduplicationId can only"
                            + " include alphanumeric and punctuation characters. 1 to 128 in length.");
        }
    }

    @Test
    void invalidMessageGroupIdOnFifo() {
        String url = fifo(Map.of());
        assertV2Error(() -> send(url, "x", "g".repeat(129), "d"), "InvalidParameterValue",
                "Value " + "g".repeat(129) + " for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include"
                        + " alphanumeric and punctuation characters. 1 to 128 in length.");
    }

    @Test
    void b33_fifoSendWithoutMessageGroupId() {
        String url = fifo(Map.of());
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageDeduplicationId("d")),
                "MissingParameter", "The request must contain the parameter MessageGroupId.");
        com.amazonaws.services.sqs.model.SendMessageRequest v1 =
                new com.amazonaws.services.sqs.model.SendMessageRequest(url, "x").withMessageDeduplicationId("d");
        io.hikyaku.it.support.SqsErrors.assertV1Error(() -> sqsV1.sendMessage(v1), "MissingParameter",
                "The request must contain the parameter MessageGroupId.");
    }

    @Test
    void b34_fifoSendWithoutDeduplicationIdOrContentBasedDeduplication() {
        String url = fifo(Map.of());
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId("g")), "InvalidParameterValue",
                "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
    }

    @Test
    void b35_perMessageDelayOnFifo() {
        String url = fifo(Map.of(QueueAttributeName.DELAY_SECONDS, "2"));
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId("g").messageDeduplicationId("d")
                        .delaySeconds(2)), "InvalidParameterValue",
                "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.");
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("zero").messageGroupId("g").messageDeduplicationId("d0").delaySeconds(0));
        // the queue's own delay still applies
        assertThat(receiveBodies(url, 1)).isEmpty();
        advance(Duration.ofSeconds(2));
        assertThat(receiveBodies(url, 1)).containsExactly("zero");
    }

    @Test
    void b36_sequenceNumbersStrictlyIncrease() {
        String url = fifo(Map.of());
        BigInteger previous = BigInteger.valueOf(-1);
        for (int i = 0; i < 5; i++) {
            SendMessageResponse r = send(url, "m" + i, i % 2 == 0 ? "a" : "b", "d" + i);
            assertThat(r.sequenceNumber()).matches("\\d+");
            BigInteger seq = new BigInteger(r.sequenceNumber());
            assertThat(seq).isGreaterThan(previous);
            previous = seq;
        }
    }

    @Test
    void orderIsKeptWithinAGroup() {
        String url = fifo(Map.of());
        for (int i = 0; i < 8; i++) {
            send(url, "m" + i, "g", "d" + i);
        }
        assertThat(drain(url)).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7");
    }

    @Test
    void aGroupWithAMessageInFlightIsLocked() {
        String url = fifo(Map.of());
        send(url, "a1", "A", "1");
        send(url, "a2", "A", "2");
        send(url, "b1", "B", "3");
        Message a1 = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(1)).messages().get(0);
        assertThat(a1.body()).isEqualTo("a1");
        // A is locked while a1 is in flight, so only B can be served
        assertThat(receiveBodies(url, 10)).containsExactly("b1");
        assertThat(receiveBodies(url, 10)).isEmpty();
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(a1.receiptHandle()));
        assertThat(receiveBodies(url, 10)).containsExactly("a2");
    }

    @Test
    void expiredMessageIsRedeliveredBeforeTheRestOfItsGroup() {
        String url = fifo(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "10"));
        send(url, "first", "g", "1");
        send(url, "second", "g", "2");
        assertThat(receiveBodies(url, 1)).containsExactly("first");
        advance(Duration.ofSeconds(11));
        assertThat(receiveBodies(url, 10)).startsWith("first");
    }

    @Test
    void duplicatesWithinFiveMinutesAreDropped() {
        String url = fifo(Map.of());
        send(url, "one", "g", "same");
        // a duplicate is accepted (200) but not delivered
        assertThat(send(url, "two", "g", "same").messageId()).isNotBlank();
        assertThat(drain(url)).containsExactly("one");
        advance(Duration.ofMinutes(4));
        send(url, "three", "g", "same");
        assertThat(drain(url)).isEmpty();
        advance(Duration.ofSeconds(61));
        send(url, "four", "g", "same");
        assertThat(drain(url)).containsExactly("four");
    }

    @Test
    void contentBasedDeduplicationUsesTheBody() {
        String url = fifo(Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("other body").messageGroupId("g"));
        // an explicit id wins over the body hash
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("same body").messageGroupId("g").messageDeduplicationId("explicit"));
        assertThat(drain(url)).containsExactly("same body", "other body", "same body");
    }

    @Test
    void deduplicationScopeMessageGroup() {
        String url = fifo(Map.of(QueueAttributeName.DEDUPLICATION_SCOPE, "messageGroup",
                QueueAttributeName.FIFO_THROUGHPUT_LIMIT, "perMessageGroupId"));
        send(url, "in A", "A", "same");
        send(url, "in B", "B", "same");
        send(url, "again A", "A", "same");
        assertThat(drain(url)).containsExactlyInAnyOrder("in A", "in B");
        assertThat(attributes(url, QueueAttributeName.ALL)).containsEntry("DeduplicationScope", "messageGroup")
                .containsEntry("FifoThroughputLimit", "perMessageGroupId");
    }

    @Test
    void b43_fifoSystemAttributes() {
        String url = fifo(Map.of());
        SendMessageResponse sent = send(url, "attrs", "grp", "dd");
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(MessageSystemAttributeName.ALL))
                .messages().get(0);
        assertThat(m.attributesAsStrings()).containsOnlyKeys("ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount",
                "SenderId", "SentTimestamp", "MessageDeduplicationId", "MessageGroupId", "SequenceNumber");
        assertThat(m.attributesAsStrings()).containsEntry("MessageDeduplicationId", "dd").containsEntry("MessageGroupId", "grp")
                .containsEntry("SequenceNumber", sent.sequenceNumber()).containsEntry("ApproximateReceiveCount", "1");
    }

    @Test
    void receiveRequestAttemptIdReturnsTheSameMessagesOnRetry() {
        String url = fifo(Map.of());
        send(url, "r1", "g", "1");
        send(url, "r2", "g", "2");
        List<Message> first = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(2).receiveRequestAttemptId("attempt-1")).messages();
        List<Message> retry = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(2).receiveRequestAttemptId("attempt-1")).messages();
        assertThat(first).extracting(Message::body).containsExactly("r1", "r2");
        assertThat(retry).extracting(Message::messageId).isEqualTo(first.stream().map(Message::messageId).toList());
    }

    @Test
    void fifoSendAndReceive_v1() {
        String url = sqsV1.createQueue(new com.amazonaws.services.sqs.model.CreateQueueRequest(uniqueFifo("fifo1"))
                .addAttributesEntry("FifoQueue", "true").addAttributesEntry("ContentBasedDeduplication", "true")).getQueueUrl();
        var r1 = sqsV1.sendMessage(new com.amazonaws.services.sqs.model.SendMessageRequest(url, "v1-a").withMessageGroupId("g"));
        var r2 = sqsV1.sendMessage(new com.amazonaws.services.sqs.model.SendMessageRequest(url, "v1-b").withMessageGroupId("g"));
        assertThat(new BigInteger(r2.getSequenceNumber())).isGreaterThan(new BigInteger(r1.getSequenceNumber()));
        var got = sqsV1.receiveMessage(new com.amazonaws.services.sqs.model.ReceiveMessageRequest(url)
                .withMaxNumberOfMessages(10).withAttributeNames("All")).getMessages();
        assertThat(got).extracting(com.amazonaws.services.sqs.model.Message::getBody).containsExactly("v1-a", "v1-b");
        assertThat(got.get(0).getAttributes()).containsEntry("MessageGroupId", "g")
                .containsEntry("SequenceNumber", r1.getSequenceNumber());
    }

    @Test
    void queueScopeDeduplicatesAcrossGroups() {
        String url = fifo(Map.of());
        send(url, "in A", "A", "shared-id");
        send(url, "in B", "B", "shared-id");
        assertThat(drain(url)).containsExactly("in A");
    }

    @Test
    void deleteBatchWithAnExpiredFifoHandleFailsThatEntry() {
        String url = fifo(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "5"));
        send(url, "x", "g1", "1");
        send(url, "y", "g2", "2");
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
        assertThat(got).hasSize(2);
        advance(Duration.ofSeconds(6));
        String fresh = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(1)).messages().get(0).receiptHandle();
        var r = sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(e -> e.id("old").receiptHandle(got.get(0).receiptHandle()),
                e -> e.id("new").receiptHandle(fresh)));
        assertThat(r.successful()).extracting(x -> x.id()).containsExactly("new");
        assertThat(r.failed()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("old");
            assertThat(f.code()).isEqualTo("InvalidParameterValue");
            assertThat(f.senderFault()).isTrue();
        });
    }
}
