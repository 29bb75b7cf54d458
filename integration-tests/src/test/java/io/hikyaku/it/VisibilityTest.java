package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Receipt handles, visibility timeouts, delays and retention, driven by the fake clock (behaviours 46-50). */
class VisibilityTest extends SqsTestBase {

    private List<Message> receive(String url) {
        return sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
                .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).messages();
    }

    private Message receiveOne(String url) {
        List<Message> got = receive(url);
        assertThat(got).hasSize(1);
        return got.get(0);
    }

    private String sendOne(String url, String body) {
        return sqs.sendMessage(b -> b.queueUrl(url).messageBody(body)).messageId();
    }

    @Test
    void b46_deleteWithGarbageHandle() {
        String url = createQueue(unique("vis"));
        assertV2Error(() -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle("garbage")), "ReceiptHandleIsInvalid",
                "The input receipt handle \"garbage\" is not a valid receipt handle.");
        assertV1Error(() -> sqsV1.deleteMessage(url, "garbage"), "ReceiptHandleIsInvalid",
                "The input receipt handle \"garbage\" is not a valid receipt handle.");
    }

    @Test
    void b47_changeVisibilityWithInvalidHandle() {
        String url = createQueue(unique("vis"));
        assertV2Error(() -> sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle("INVALID").visibilityTimeout(1)),
                "ReceiptHandleIsInvalid", null);
        assertV1Error(() -> sqsV1.changeMessageVisibility(url, "INVALID", 1), "ReceiptHandleIsInvalid", null);
    }

    @Test
    void b48_repeatedDeleteWithUsedHandleSucceeds() {
        String url = createQueue(unique("vis"));
        sendOne(url, "once");
        String handle = receiveOne(url).receiptHandle();
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
        sqsV1.deleteMessage(url, handle);
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).isEqualTo("0");
    }

    @Test
    void b49_changeVisibilityAfterDelete() {
        String url = createQueue(unique("vis"));
        sendOne(url, "gone");
        String handle = receiveOne(url).receiptHandle();
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
        assertV2Error(() -> sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(10)),
                "InvalidParameterValue", "Value " + handle + " for parameter ReceiptHandle is invalid. Reason: Message does not exist"
                        + " or is not available for visibility timeout change.");
    }

    @Test
    void b50_fifoDeleteWithExpiredHandle() {
        String url = createFifoQueue(uniqueFifo("vis"), Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "5"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("f").messageGroupId("g").messageDeduplicationId("d"));
        String handle = receiveOne(url).receiptHandle();
        advance(Duration.ofSeconds(6));
        assertV2Error(() -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle)), "InvalidParameterValue",
                "Value " + handle + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.");
        // the message is still there
        assertThat(receiveOne(url).body()).isEqualTo("f");
    }

    @Test
    void b50_standardDeleteWithOldHandleSucceeds() {
        String url = createQueue(unique("vis"), Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "5"));
        sendOne(url, "s");
        String handle = receiveOne(url).receiptHandle();
        advance(Duration.ofSeconds(6));
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
    }

    @Test
    void messageReappearsWhenVisibilityTimeoutExpires() {
        String url = createQueue(unique("vis-exp"));
        String id = sendOne(url, "again");
        Message first = receiveOne(url);
        assertThat(first.attributesAsStrings()).containsEntry("ApproximateReceiveCount", "1");
        assertThat(receive(url)).isEmpty();
        advance(Duration.ofSeconds(29));
        assertThat(receive(url)).isEmpty();
        advance(Duration.ofSeconds(2));
        Message second = receiveOne(url);
        assertThat(second.messageId()).isEqualTo(id);
        assertThat(second.receiptHandle()).isNotEqualTo(first.receiptHandle());
        assertThat(second.attributesAsStrings()).containsEntry("ApproximateReceiveCount", "2");
    }

    @Test
    void receiveVisibilityTimeoutOverridesTheQueue() {
        String url = createQueue(unique("vis-over"), Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "100"));
        sendOne(url, "short");
        sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(3));
        advance(Duration.ofSeconds(4));
        assertThat(receiveOne(url).body()).isEqualTo("short");
        // and VisibilityTimeout=0 leaves it visible right away
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)).messages()).isEmpty();
        advance(Duration.ofSeconds(101));
        sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0));
        assertThat(receiveOne(url).body()).isEqualTo("short");
    }

    @Test
    void changeVisibilityExtendsAndShortens_v2() {
        String url = createQueue(unique("vis-cmv"));
        sendOne(url, "cmv");
        String handle = receiveOne(url).receiptHandle();
        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(100));
        advance(Duration.ofSeconds(31));
        assertThat(receive(url)).isEmpty();
        advance(Duration.ofSeconds(70));
        String handle2 = receiveOne(url).receiptHandle();
        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle2).visibilityTimeout(0));
        assertThat(receiveOne(url).body()).isEqualTo("cmv");
    }

    @Test
    void changeVisibilityAndDelete_v1() {
        String url = sqsV1.createQueue(unique("vis-v1")).getQueueUrl();
        sqsV1.sendMessage(url, "v1");
        var m = sqsV1.receiveMessage(url).getMessages().get(0);
        sqsV1.changeMessageVisibility(url, m.getReceiptHandle(), 0);
        var again = sqsV1.receiveMessage(url).getMessages();
        assertThat(again).hasSize(1);
        sqsV1.deleteMessage(url, again.get(0).getReceiptHandle());
        advance(Duration.ofSeconds(31));
        assertThat(sqsV1.receiveMessage(url).getMessages()).isEmpty();
    }

    @Test
    void visibilityIsCappedAtTwelveHoursFromReceive() {
        String url = createQueue(unique("vis-cap"));
        sendOne(url, "cap");
        String handle = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(43200)).messages().get(0).receiptHandle();
        assertV2Error(() -> sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(43201)),
                "InvalidParameterValue", null);
        advance(Duration.ofHours(1));
        // one hour in, at most 11 more hours are allowed
        assertV2Error(() -> sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(43200)),
                "InvalidParameterValue", null);
        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(39600));
        advance(Duration.ofSeconds(39599));
        assertThat(receive(url)).isEmpty();
        advance(Duration.ofSeconds(2));
        assertThat(receiveOne(url).body()).isEqualTo("cap");
    }

    @Test
    void queueDelaySecondsHidesNewMessages() {
        String url = createQueue(unique("vis-delay"), Map.of(QueueAttributeName.DELAY_SECONDS, "5"));
        sendOne(url, "later");
        assertThat(receive(url)).isEmpty();
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).isEqualTo("1");
        advance(Duration.ofSeconds(4));
        assertThat(receive(url)).isEmpty();
        advance(Duration.ofSeconds(1));
        assertThat(receiveOne(url).body()).isEqualTo("later");
    }

    @Test
    void messageDelaySecondsOverridesQueueDelay() {
        String url = createQueue(unique("vis-mdelay"), Map.of(QueueAttributeName.DELAY_SECONDS, "60"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("ten").delaySeconds(10));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("zero").delaySeconds(0));
        assertThat(receiveOne(url).body()).isEqualTo("zero");
        advance(Duration.ofSeconds(10));
        assertThat(receiveOne(url).body()).isEqualTo("ten");
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").delaySeconds(901)), "InvalidParameterValue", null);
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").delaySeconds(-1)), "InvalidParameterValue", null);
    }

    @Test
    void messagesExpireAfterDefaultRetentionOfFourDays() {
        String url = createQueue(unique("vis-ret"));
        sendOne(url, "old");
        advance(Duration.ofDays(4).minusSeconds(1));
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("1");
        advance(Duration.ofSeconds(2));
        assertThat(receive(url)).isEmpty();
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("0");
    }

    @Test
    void messagesExpireAfterConfiguredRetentionEvenWhileInFlight() {
        String url = createQueue(unique("vis-ret60"), Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "60",
                QueueAttributeName.VISIBILITY_TIMEOUT, "300"));
        sendOne(url, "inflight");
        sendOne(url, "waiting");
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).hasSize(1);
        advance(Duration.ofSeconds(59));
        assertThat(receive(url)).hasSize(1);
        advance(Duration.ofSeconds(302));
        assertThat(receive(url)).isEmpty();
        assertThat(attributes(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .containsEntry("ApproximateNumberOfMessages", "0")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "0");
    }

    @Test
    void loweringRetentionExpiresMessagesAlreadyStored() {
        String url = createQueue(unique("vis-ret-lower"));
        sendOne(url, "stored before");
        advance(Duration.ofSeconds(30));
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "60")));
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("1");
        advance(Duration.ofSeconds(31));
        assertThat(receive(url)).isEmpty();
    }

    @Test
    void firstReceiveTimestampStaysAndSentTimestampFollowsTheClock() {
        String url = createQueue(unique("vis-ts"));
        advance(Duration.ofSeconds(5));
        long sentAt = clock.millis();
        sendOne(url, "ts");
        advance(Duration.ofSeconds(7));
        long firstAt = clock.millis();
        Message first = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().get(0);
        advance(Duration.ofSeconds(2));
        Message second = sqs.receiveMessage(b -> b.queueUrl(url)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().get(0);
        for (Message m : List.of(first, second)) {
            assertThat(m.attributesAsStrings()).containsEntry("SentTimestamp", String.valueOf(sentAt))
                    .containsEntry("ApproximateFirstReceiveTimestamp", String.valueOf(firstAt));
        }
        assertThat(second.attributesAsStrings()).containsEntry("ApproximateReceiveCount", "2");
    }

    @Test
    void fifoChangeVisibilityKeepsTheGroupLocked() {
        String url = createFifoQueue(uniqueFifo("vis-fifo"), Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("f1").messageGroupId("g").messageDeduplicationId("1"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("f2").messageGroupId("g").messageDeduplicationId("2"));
        String handle = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(1)).messages().get(0).receiptHandle();
        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(120));
        advance(Duration.ofSeconds(31));
        assertThat(receive(url)).isEmpty();
        advance(Duration.ofSeconds(90));
        assertThat(receive(url)).extracting(Message::body).startsWith("f1");
    }
}
