package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ReceiveRequestAttemptId: at most 128 alphanumeric or punctuation characters (API reference). */
class ReceiveAttemptIdTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    private String fifoWithOneMessage() {
        String url = sqs.createQueue("attempt.fifo", "{\"FifoQueue\":\"true\",\"ContentBasedDeduplication\":\"true\"}");
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"m\",\"MessageGroupId\":\"g\"}");
        return url;
    }

    @Test
    void tooLongOrWithASpaceIsRefusedAndNothingIsDelivered() {
        String url = fifoWithOneMessage();
        for (String id : new String[] {"x".repeat(129), "has space", ""}) {
            ApiException e = sqs.error("ReceiveMessage",
                    "{\"QueueUrl\":\"" + url + "\",\"ReceiveRequestAttemptId\":\"" + id + "\"}");
            assertThat(e.errorType()).isEqualTo("InvalidParameterValue");
            assertThat(e.getMessage()).isEqualTo("Value " + id + " for parameter ReceiveRequestAttemptId is invalid. "
                    + "Reason: ReceiveRequestAttemptId can only include alphanumeric and punctuation characters. 1 to 128 in length.");
        }
        assertThat(sqs.receive(url, null).get("Messages")).hasSize(1);
    }

    @Test
    void oneHundredTwentyEightAlphanumericsAndPunctuationAreAccepted() {
        String url = fifoWithOneMessage();
        String id = "a".repeat(120) + "-_.:!#$%";
        assertThat(sqs.receive(url, "\"ReceiveRequestAttemptId\":\"" + id + "\"").get("Messages")).hasSize(1);
    }
}
