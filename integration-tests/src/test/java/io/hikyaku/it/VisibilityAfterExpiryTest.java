package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * ChangeMessageVisibility after the visibility timeout expired (sqs-behaviours 81). On a standard
 * queue the latest receive's handle still works (200) and puts the message back in flight for the
 * new timeout; a FIFO queue answers MessageNotInflight.
 */
class VisibilityAfterExpiryTest extends SqsTestBase {

    @Test
    void b81_standardQueueAcceptsTheChangeAndTheMessageIsInFlightAgain() {
        String url = createQueue(unique("b81"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m"));
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1)).messages().get(0);
        advance(Duration.ofSeconds(2));
        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()).visibilityTimeout(2));
        sqsV1.changeMessageVisibility(url, m.receiptHandle(), 2);
        assertThat(attributes(url, QueueAttributeName.ALL)).containsEntry("ApproximateNumberOfMessages", "0")
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "1");
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
        advance(Duration.ofSeconds(2));
        Message again = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0);
        assertThat(again.messageId()).isEqualTo(m.messageId());
    }

    @Test
    void b81_fifoQueueStillAnswersMessageNotInflight() {
        String url = createFifoQueue(uniqueFifo("b81"), Map.of());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("m").messageGroupId("g").messageDeduplicationId("d"));
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(1)).messages().get(0);
        advance(Duration.ofSeconds(2));
        assertV2Error(() -> sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()).visibilityTimeout(2)),
                "AWS.SimpleQueueService.MessageNotInflight", "The specified message isn't in flight.");
    }
}
