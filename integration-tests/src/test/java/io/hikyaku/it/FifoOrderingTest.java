package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * FIFO delivery within and across message groups (sqs-behaviours 78, 79: every recorded ordering)
 * and a DeduplicationScope change after creation (80), over JSON. The clock moves a little between
 * calls, as it does between real calls.
 */
class FifoOrderingTest extends SqsTestBase {

    private static final Duration STEP = Duration.ofMillis(5);

    private void send(String url, String body, String group) {
        sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageGroupId(group).messageDeduplicationId(body));
        advance(STEP);
    }

    private List<Message> receive(String url, int max, Integer visibility) {
        List<Message> out = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).visibilityTimeout(visibility))
                .messages();
        advance(STEP);
        return out;
    }

    private static List<String> bodies(List<Message> ms) {
        return ms.stream().map(Message::body).toList();
    }

    @Test
    void b78_case1_visibleMessagesBeforeAnExtendedOneAreDelivered() {
        List<List<String>> expected = List.of(List.of(), List.of("foo"), List.of("foo", "bar"));
        for (int extended = 0; extended < 3; extended++) {
            String url = createFifoQueue(uniqueFifo("b78-1"), Map.of());
            send(url, "foo", "g");
            send(url, "bar", "g");
            send(url, "baz", "g");
            List<Message> all = receive(url, 10, 1);
            assertThat(bodies(all)).containsExactly("foo", "bar", "baz");
            String handle = all.get(extended).receiptHandle();
            sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(4));
            advance(Duration.ofMillis(2500));
            assertThat(bodies(receive(url, 5, null))).containsExactlyElementsOf(expected.get(extended));
        }
    }

    @Test
    void b78_case2_aMessageMadeVisibleAgainComesAfterAnOlderGroup() {
        for (int waitForExpiry = 0; waitForExpiry < 2; waitForExpiry++) {
            String url = createFifoQueue(uniqueFifo("b78-2"), Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "30"));
            send(url, "g1-m1", "g1");
            send(url, "g1-m2", "g1");
            send(url, "g2-m1", "g2");
            List<Message> got = receive(url, 2, null);
            assertThat(bodies(got)).containsExactly("g1-m1", "g1-m2");
            int vt = waitForExpiry;
            sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()).visibilityTimeout(vt));
            if (vt == 1) {
                advance(Duration.ofSeconds(2));
            }
            assertThat(bodies(receive(url, 3, null))).containsExactly("g2-m1", "g1-m1");
        }
    }

    @Test
    void b78_case3_afterAPartialDeleteTheGroupWaitsForItsInFlightMessage() {
        String url = createFifoQueue(uniqueFifo("b78-3"), Map.of());
        send(url, "g1-m1", "g1");
        send(url, "g1-m2", "g1");
        send(url, "g2-m1", "g2");
        send(url, "g2-m2", "g2");
        send(url, "g3-m1", "g3");
        List<Message> got = receive(url, 2, null);
        assertThat(bodies(got)).containsExactly("g1-m1", "g1-m2");
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        assertThat(bodies(receive(url, 10, null))).containsExactly("g2-m1", "g2-m2", "g3-m1");
    }

    @Test
    void b79_receiveWithZeroVisibilityTimeout() {
        String url = createFifoQueue(uniqueFifo("b79-vt0"), Map.of());
        send(url, "g1-m1", "g1");
        send(url, "g2-m1", "g2");
        send(url, "g2-m2", "g2");
        send(url, "g3-m1", "g3");
        send(url, "g1-m2", "g1");
        assertThat(bodies(receive(url, 3, 0))).containsExactly("g1-m1", "g1-m2", "g2-m1");
        assertThat(bodies(receive(url, 10, 0))).containsExactly("g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2");
    }

    @Test
    void b79_visibilityTimeoutSharedInAGroup() {
        String url = createFifoQueue(uniqueFifo("b79-shared"), Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
        for (int i = 1; i <= 4; i++) {
            send(url, "g1-m" + i, "g1");
        }
        send(url, "g2-m1", "g2");
        send(url, "g3-m1", "g3");
        assertThat(bodies(receive(url, 2, null))).containsExactly("g1-m1", "g1-m2");
        assertThat(bodies(receive(url, 1, null))).containsExactly("g2-m1");
        advance(Duration.ofSeconds(2));
        assertThat(bodies(receive(url, 10, 0))).containsExactly("g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1");
    }

    @Test
    void b79_afterDeletingAGroupsHeadItFollowsItsNextMessage() {
        String url = createFifoQueue(uniqueFifo("b79-del"), Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        for (String[] s : new String[][] {{"g1-m1", "g1"}, {"g2-m1", "g2"}, {"g1-m2", "g1"}, {"g2-m2", "g2"},
                {"g1-m2", "g1"}, {"g1-m3", "g1"}, {"g1-m4", "g1"}, {"g3-m1", "g3"}}) {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(s[0]).messageGroupId(s[1]));
            advance(STEP);
        }
        List<Message> got = receive(url, 2, null);
        assertThat(bodies(got)).containsExactly("g1-m1", "g1-m2");
        got.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
        assertThat(bodies(receive(url, 10, null))).containsExactly("g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1");
    }

    @Test
    void b80_deduplicationStaysQueueWideRightAfterTheScopeChanges() {
        String url = createFifoQueue(uniqueFifo("b80"), Map.of(QueueAttributeName.DEDUPLICATION_SCOPE, "queue",
                QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m1").messageGroupId("group1").messageDeduplicationId("dedup_1"));
        sqs.receiveMessage(b -> b.queueUrl(url)).messages()
                .forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.DEDUPLICATION_SCOPE, "messageGroup",
                QueueAttributeName.FIFO_THROUGHPUT_LIMIT, "perMessageGroupId")));
        assertThat(attributes(url, QueueAttributeName.ALL)).containsEntry("DeduplicationScope", "messageGroup")
                .containsEntry("FifoThroughputLimit", "perMessageGroupId");
        advance(Duration.ofSeconds(2));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m2").messageGroupId("group3").messageDeduplicationId("dedup_1"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m3").messageGroupId("group4").messageDeduplicationId("dedup_2"));
        List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url)).messages();
        assertThat(bodies(got)).containsExactly("m3");
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(got.get(0).receiptHandle()));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m4").messageGroupId("group5").messageDeduplicationId("dedup_2"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
    }
}
