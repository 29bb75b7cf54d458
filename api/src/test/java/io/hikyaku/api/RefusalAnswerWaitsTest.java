package io.hikyaku.api;

import static io.hikyaku.api.FailingDiskService.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.FailingDiskService.InFlight;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A refusal is judged on memory too: a visibility change made while another client's delete of the
 * same message is still being written finds the message gone. If that delete then fails, the message
 * is back after recovery, so the refusal ("does not exist") must not have been given meanwhile: it
 * waits for the writes before it, and becomes the failed write's ServiceUnavailable.
 */
class RefusalAnswerWaitsTest {

    private final FailingDiskService s = new FailingDiskService();

    @AfterEach
    void close() {
        s.close();
    }

    @Test
    void aRefusalJudgedOnAFailedDeleteIsNotGiven() throws Exception {
        InFlight m = s.messageInFlight();

        s.store.fillDisk();
        s.store.holdOutcomes(); // the delete's failure is not known yet when the change is judged
        CompletableFuture<ObjectNode> deleted = s.call("DeleteMessage", m.delete());
        CompletableFuture<ObjectNode> changed = s.call("ChangeMessageVisibility", m.change());
        s.awaitInvoked();
        assertThat(changed).as("the refusal waits for the delete's write").isNotDone();
        s.store.releaseOutcomes();

        assertThat(errorType(deleted)).isEqualTo("ServiceUnavailable");
        assertThat(errorType(changed)).as("judged on the delete, which failed").isEqualTo("ServiceUnavailable");
        s.store.freeDisk();
        assertThat(s.awaitRecovered(m.change())).as("the message is still there, in flight under its handle").isNotNull();
    }

    @Test
    void aRefusalWithNothingPendingIsAnsweredAsBefore() throws Exception {
        String url = ServiceHarness.await(s.call("CreateQueue", "{\"QueueName\":\"q\"}")).get("QueueUrl").asText();
        CompletableFuture<ObjectNode> missing = s.call("GetQueueUrl", "{\"QueueName\":\"nope\"}");
        assertThat(errorType(missing)).isEqualTo("QueueDoesNotExist");
        String bad = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"garbage\",\"VisibilityTimeout\":0}";
        assertThat(errorType(s.call("ChangeMessageVisibility", bad))).isEqualTo("ReceiptHandleIsInvalid");
    }
}
