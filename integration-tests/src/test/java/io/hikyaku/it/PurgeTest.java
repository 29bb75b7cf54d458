package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.PurgeQueueInProgressException;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** PurgeQueue (behaviours 60-61). */
class PurgeTest extends SqsTestBase {

    @Test
    void b60_secondPurgeWithin60Seconds_v2() {
        String name = unique("purge");
        String url = createQueue(name);
        sqs.purgeQueue(b -> b.queueUrl(url));
        advance(Duration.ofSeconds(59));
        var e = assertV2Error(() -> sqs.purgeQueue(b -> b.queueUrl(url)), "AWS.SimpleQueueService.PurgeQueueInProgress", 403,
                "Only one PurgeQueue operation on " + name + " is allowed every 60 seconds.");
        assertThat(e).isInstanceOf(PurgeQueueInProgressException.class);
        advance(Duration.ofSeconds(1));
        sqs.purgeQueue(b -> b.queueUrl(url));
    }

    @Test
    void b60_secondPurgeWithin60Seconds_v1() {
        String name = unique("purge1");
        String url = sqsV1.createQueue(name).getQueueUrl();
        sqsV1.sendMessage(url, "doomed");
        sqsV1.purgeQueue(new com.amazonaws.services.sqs.model.PurgeQueueRequest(url));
        assertThat(sqsV1.receiveMessage(url).getMessages()).isEmpty();
        assertV1Error(() -> sqsV1.purgeQueue(new com.amazonaws.services.sqs.model.PurgeQueueRequest(url)),
                "AWS.SimpleQueueService.PurgeQueueInProgress", 403,
                "Only one PurgeQueue operation on " + name + " is allowed every 60 seconds.");
    }

    @Test
    void b61_purgeRemovesVisibleInFlightAndDelayedMessages() {
        String url = createQueue(unique("purge-all"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("visible"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("in flight"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("delayed").delaySeconds(30));
        sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(1));
        sqs.purgeQueue(b -> b.queueUrl(url));
        assertThat(attributes(url, QueueAttributeName.ALL))
                .containsEntry("ApproximateNumberOfMessages", "0")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "0")
                .containsEntry("ApproximateNumberOfMessagesDelayed", "0");
        advance(Duration.ofSeconds(31));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages()).isEmpty();
        // the queue keeps working afterwards
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("after"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("after");
    }

    @Test
    void b61_purgeClearsTheFifoDeduplicationCache() {
        String url = createFifoQueue(uniqueFifo("purge"), Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("first").messageGroupId("g").messageDeduplicationId("d"));
        sqs.purgeQueue(b -> b.queueUrl(url));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("second").messageGroupId("g").messageDeduplicationId("d"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("second");
    }

    @Test
    void b61_purgeReleasesAFifoGroupLockedByAnInFlightMessage() {
        String url = createFifoQueue(uniqueFifo("purge-lock"), Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("held").messageGroupId("g").messageDeduplicationId("1"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).hasSize(1);
        sqs.purgeQueue(b -> b.queueUrl(url));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("next").messageGroupId("g").messageDeduplicationId("2"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("next");
    }
}
