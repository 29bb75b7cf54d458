package io.hikyaku.itq;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import io.hikyaku.itq.support.QueryTestBase;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** FIFO queues over Query/XML: group order, in-flight groups, dedup, sequence numbers, attempt ids. */
class FifoOverQueryTest extends QueryTestBase {

    private String fifo(Map<String, String> extra) {
        Map<String, String> a = new java.util.HashMap<>(extra);
        a.put("FifoQueue", "true");
        return sqs.createQueue(new CreateQueueRequest(unique("f") + ".fifo").withAttributes(a)).getQueueUrl();
    }

    @Test
    void ordersWithinAGroupAndHoldsTheGroupWhileInFlight() {
        String url = fifo(Map.of("ContentBasedDeduplication", "true"));
        List<String> seqs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            seqs.add(sqs.sendMessage(new SendMessageRequest(url, "a" + i).withMessageGroupId("A")).getSequenceNumber());
        }
        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            batch.add(new SendMessageBatchRequestEntry("b" + i, "b" + i).withMessageGroupId("B"));
        }
        sqs.sendMessageBatch(url, batch).getSuccessful().forEach(e -> seqs.add(e.getSequenceNumber()));
        for (int i = 1; i < seqs.size(); i++) {
            assertThat(new BigInteger(seqs.get(i))).isGreaterThan(new BigInteger(seqs.get(i - 1)));
        }

        List<Message> got = sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(3)
                .withAttributeNames("All")).getMessages();
        assertThat(got).extracting(Message::getBody).containsExactly("a0", "a1", "a2");
        assertThat(got.get(0).getAttributes()).containsEntry("MessageGroupId", "A")
                .containsEntry("SequenceNumber", seqs.get(0)).containsKey("MessageDeduplicationId");
        // Group A is in flight: only group B can be served now.
        assertThat(sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages())
                .extracting(Message::getBody).containsExactly("b0", "b1", "b2");
        assertThat(sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages()).isEmpty();
        got.forEach(m -> sqs.deleteMessage(url, m.getReceiptHandle()));
        assertThat(sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages())
                .extracting(Message::getBody).containsExactly("a3", "a4");
    }

    @Test
    void duplicatesWithinFiveMinutesReturnTheOriginal() {
        String url = fifo(Map.of());
        SendMessageResult first = sqs.sendMessage(new SendMessageRequest(url, "pay 10").withMessageGroupId("g")
                .withMessageDeduplicationId("pay-1"));
        SendMessageResult dup = sqs.sendMessage(new SendMessageRequest(url, "pay 10 again").withMessageGroupId("g")
                .withMessageDeduplicationId("pay-1"));
        assertThat(dup.getMessageId()).isEqualTo(first.getMessageId());
        assertThat(dup.getSequenceNumber()).isEqualTo(first.getSequenceNumber());
        assertThat(count(url)).isEqualTo(1);
        advance(Duration.ofMinutes(5).plusSeconds(1));
        SendMessageResult later = sqs.sendMessage(new SendMessageRequest(url, "pay 10 later").withMessageGroupId("g")
                .withMessageDeduplicationId("pay-1"));
        assertThat(later.getMessageId()).isNotEqualTo(first.getMessageId());
        assertThat(count(url)).isEqualTo(2);
    }

    @Test
    void aRetriedReceiveAttemptGetsTheSameMessagesAndHandles() {
        String url = fifo(Map.of("ContentBasedDeduplication", "true"));
        for (int i = 0; i < 3; i++) {
            sqs.sendMessage(new SendMessageRequest(url, "m" + i).withMessageGroupId("g"));
        }
        ReceiveMessageRequest attempt = new ReceiveMessageRequest(url).withMaxNumberOfMessages(2)
                .withReceiveRequestAttemptId("attempt-1");
        List<Message> first = sqs.receiveMessage(attempt).getMessages();
        List<Message> retry = sqs.receiveMessage(attempt).getMessages();
        assertThat(first).extracting(Message::getBody).containsExactly("m0", "m1");
        assertThat(retry).extracting(Message::getReceiptHandle)
                .containsExactlyElementsOf(first.stream().map(Message::getReceiptHandle).toList());
    }

    private int count(String url) {
        return Integer.parseInt(sqs.getQueueAttributes(url, List.of("ApproximateNumberOfMessages"))
                .getAttributes().get("ApproximateNumberOfMessages"));
    }
}
