package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A JSON null as a map value is answered like {} (refused), never silently dropped. */
class NullMapValueTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    @Test
    void aNullMessageAttributeValueIsRefusedLikeAnEmptyOne() {
        String url = sqs.createQueue("nulls", null);
        for (String value : new String[] {"null", "{}"}) {
            ApiException e = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url
                    + "\",\"MessageBody\":\"x\",\"MessageAttributes\":{\"a\":" + value + "}}");
            assertThat(e.errorType()).isEqualTo("InvalidParameterValue");
            assertThat(e.getMessage()).isEqualTo("The message (user) attribute 'a' must contain a non-empty message attribute type.");
        }
        assertThat(sqs.receive(url, null).has("Messages")).as("nothing was stored").isFalse();
    }

    @Test
    void aNullSystemAttributeValueIsRefused() {
        String url = sqs.createQueue("nullsys", null);
        ApiException e = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url
                + "\",\"MessageBody\":\"x\",\"MessageSystemAttributes\":{\"AWSTraceHeader\":null}}");
        assertThat(e.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(e.getMessage()).isEqualTo(
                "The message system attribute 'AWSTraceHeader' must contain a non-empty message attribute type.");
    }

    @Test
    void inABatchTheNullValueFailsOnlyItsEntry() {
        String url = sqs.createQueue("nullbatch", null);
        var result = sqs.call("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"bad\",\"MessageBody\":\"x\",\"MessageAttributes\":{\"a\":null}},"
                + "{\"Id\":\"good\",\"MessageBody\":\"y\"}]}");
        assertThat(result.get("Successful")).hasSize(1);
        assertThat(result.get("Failed").get(0).get("Id").asText()).isEqualTo("bad");
        assertThat(result.get("Failed").get(0).get("Code").asText()).isEqualTo("InvalidParameterValue");
    }
}
