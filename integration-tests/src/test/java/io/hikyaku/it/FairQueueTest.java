package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Fair queues (behaviour 30 and the fair-queue rules of the API reference): a tenant holding more than 10% of the
 * in-flight messages and at least 30 of its own is noisy, and delivery prefers quiet tenants. A noisy tenant stays
 * noisy until its backlog drains or it has sent nothing for five minutes (by the server's fake clock).
 */
class FairQueueTest extends SqsTestBase {

    private void sendMany(String url, String group, String prefix, int count) {
        for (int start = 0; start < count; start += 10) {
            int from = start;
            List<SendMessageBatchRequestEntry> entries = IntStream.range(from, Math.min(count, from + 10))
                    .mapToObj(i -> {
                        SendMessageBatchRequestEntry.Builder e = SendMessageBatchRequestEntry.builder().id("e" + i).messageBody(prefix + i);
                        return (group == null ? e : e.messageGroupId(group)).build();
                    })
                    .toList();
            assertThat(sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries)).failed()).isEmpty();
        }
    }

    private List<Message> receive(String url, int max) {
        return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(max).visibilityTimeout(600)
                .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages();
    }

    /** Takes {@code count} messages in flight (bounded number of receives). */
    private List<Message> takeInFlight(String url, int count) {
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < count && out.size() < count; i++) {
            out.addAll(receive(url, Math.min(10, count - out.size())));
        }
        assertThat(out).hasSize(count);
        return out;
    }

    @Test
    void quietTenantIsServedBeforeANoisyTenantsBacklog() {
        String url = createQueue(unique("fair"));
        sendMany(url, "noisy", "n", 60);
        takeInFlight(url, 40);
        sendMany(url, "quiet", "q", 5);
        List<Message> next = receive(url, 10);
        assertThat(next).extracting(Message::body).contains("q0", "q1", "q2", "q3", "q4");
    }

    @Test
    void messagesWithoutAGroupAreEachTheirOwnQuietTenant() {
        String url = createQueue(unique("fair-nogroup"));
        sendMany(url, "noisy", "n", 60);
        takeInFlight(url, 40);
        sendMany(url, null, "solo", 3);
        List<Message> next = receive(url, 10);
        assertThat(next).extracting(Message::body).contains("solo0", "solo1", "solo2");
    }

    @Test
    void withoutANoisyTenantEveryMessageIsDeliveredOnce() {
        String url = createQueue(unique("fair-even"));
        sendMany(url, "a", "a", 15);
        sendMany(url, "b", "b", 15);
        List<Message> all = takeInFlight(url, 30);
        assertThat(all).extracting(Message::body).doesNotHaveDuplicates().hasSize(30);
        assertThat(all).extracting(m -> m.attributesAsStrings().get("MessageGroupId")).containsOnly("a", "b");
        assertThat(receive(url, 10)).isEmpty();
    }

    @Test
    void aNoisyTenantStaysNoisyWhileItSendsAndTurnsQuietAfterFiveSilentMinutes() {
        String url = createQueue(unique("fair-sticky"));
        sendMany(url, "noisy", "n", 60);
        List<Message> inflight = takeInFlight(url, 40);
        for (Message m : inflight.subList(0, 35)) {
            sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
        }
        // 5 in flight: far below the bar, but it keeps sending, so it is still noisy
        sendMany(url, "noisy", "late", 2);
        sendMany(url, "quiet", "q", 3);
        assertThat(receive(url, 3)).extracting(Message::body).containsExactly("q0", "q1", "q2");
        // five minutes without a send from it: quiet again, so its older backlog goes first
        advance(java.time.Duration.ofMinutes(5));
        sendMany(url, "quiet", "r", 1);
        assertThat(receive(url, 2)).extracting(Message::body).containsExactly("n40", "n41");
    }
}
