package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Hikyaku.PeekMessages through the service: shape, cursor, validation, and no change to the queue. */
class PeekEndToEndTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    @Test
    void peeksWithAllAttributesAndNoReceiptHandle() {
        String url = sqs.createQueue("q", null);
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"test\","
                + "\"MessageAttributes\":{\"Foo\":{\"DataType\":\"String\",\"StringValue\":\"Bar\"}}}");
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"second\"}");
        ObjectNode page = sqs.call("Hikyaku.PeekMessages", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":1}");
        JsonNode m = page.get("Messages").get(0);
        assertThat(m.get("Body").asText()).isEqualTo("test");
        assertThat(m.has("ReceiptHandle")).isFalse();
        assertThat(m.get("MD5OfBody").asText()).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(m.get("MessageAttributes").get("Foo").get("StringValue").asText()).isEqualTo("Bar");
        assertThat(m.get("Attributes").get("ApproximateReceiveCount").asText()).isEqualTo("0");
        String cursor = page.get("NextCursor").asText();
        ObjectNode next = sqs.call("Hikyaku.PeekMessages", "{\"QueueUrl\":\"" + url + "\",\"Cursor\":\"" + cursor + "\"}");
        assertThat(next.get("Messages")).hasSize(1);
        assertThat(next.get("Messages").get(0).get("Body").asText()).isEqualTo("second");
        assertThat(next.has("NextCursor")).isFalse();

        ObjectNode attrs = sqs.call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}");
        assertThat(attrs.get("Attributes").get("ApproximateNumberOfMessages").asText()).isEqualTo("2");
        assertThat(attrs.get("Attributes").get("ApproximateNumberOfMessagesNotVisible").asText()).isEqualTo("0");
        JsonNode received = sqs.receive(url, "\"MaxNumberOfMessages\":10,\"MessageSystemAttributeNames\":[\"All\"]").get("Messages");
        assertThat(received).hasSize(2);
        assertThat(received.get(0).get("Attributes").get("ApproximateReceiveCount").asText()).isEqualTo("1");
    }

    @Test
    void refusesBadInput() {
        String url = sqs.createQueue("q", null);
        assertThat(sqs.error("Hikyaku.PeekMessages", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":11}").errorType())
                .isEqualTo("InvalidParameterValue");
        assertThat(sqs.error("Hikyaku.PeekMessages", "{\"QueueUrl\":\"" + url + "\",\"Cursor\":\"abc\"}").errorType())
                .isEqualTo("InvalidParameterValue");
        assertThat(sqs.error("Hikyaku.PeekMessages", "{\"QueueUrl\":\"" + url + "x\"}").errorType())
                .isEqualTo("QueueDoesNotExist");
        assertThat(sqs.error("Hikyaku.PeekMessages", "{}").errorType()).isEqualTo("MissingRequiredParameterException");
    }
}
