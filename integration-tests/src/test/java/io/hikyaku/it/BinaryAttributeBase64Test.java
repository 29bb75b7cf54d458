package io.hikyaku.it;

import static io.hikyaku.it.support.RawHttp.JSON_TYPE;
import static io.hikyaku.it.support.RawHttp.form;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.it.support.Xml;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A Binary value that is not base64 never gives a 500, never stores anything, and gets SQS's error:
 * over JSON Coral's 400 SerializationException (the whole request, a batch too); over Query a 400
 * Sender InvalidParameterValue naming the parameter (see protocol/PROTOCOL.md). Raw HTTP, both
 * protocols, SendMessage, SendMessageBatch, system attributes and BinaryListValues.
 */
class BinaryAttributeBase64Test extends SqsTestBase {

    private static final String CORAL_SERIALIZATION = "com.amazon.coral.service#SerializationException";
    private static final String NOT_VALID = "Base64 encoded value is not valid";

    private static String lengthMessage(int n) {
        return "Base64 encoded length is expected a multiple of 4 bytes but found: " + n;
    }

    private static String queryMessage(String parameter) {
        return "Value for parameter " + parameter + " is invalid. Reason: the value is not valid base64.";
    }

    // --- JSON -----------------------------------------------------------------------------------

    private void assertJsonSerialization(RawHttp.Response r, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.header("content-type")).startsWith(JSON_TYPE);
        assertThat(r.header("x-amzn-query-error")).isNull();
        assertThat(r.header("x-amzn-RequestId")).isNotBlank();
        JsonNode body = Json.parse(r.body());
        assertThat(body.path("__type").asText()).isEqualTo(CORAL_SERIALIZATION);
        assertThat(body.path("message").asText()).isEqualTo(message);
    }

    private static String attr(String name, String dataType, String valueJson) {
        return "{\"" + name + "\":{\"DataType\":\"" + dataType + "\"," + valueJson + "}}";
    }

    @Test
    void jsonSendMessageWithInvalidBase64IsASerializationException() {
        String url = createQueue(unique("b64-json"));
        String[][] cases = {
            {"not*base64!", lengthMessage(11)}, {"!!!!", NOT_VALID}, {"AQ-_", NOT_VALID}, {"AQ==AQ==", NOT_VALID},
            {"AQ", lengthMessage(2)}, {"AQ\\r\\nID", lengthMessage(6)}, {"A\u00e9ID", NOT_VALID},
        };
        for (String[] c : cases) {
            assertJsonSerialization(http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                    + "\"MessageAttributes\":" + attr("blob", "Binary", "\"BinaryValue\":\"" + c[0] + "\"") + "}"), c[1]);
        }
        assertEmpty(url);
    }

    @Test
    void jsonSendMessageBatchWithOneInvalidBlobFailsWhollyAndStoresNothing() {
        String url = createQueue(unique("b64-json-batch"));
        assertJsonSerialization(http.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"ok\",\"MessageBody\":\"fine\"},"
                + "{\"Id\":\"bad\",\"MessageBody\":\"b\",\"MessageAttributes\":"
                + attr("blob", "Binary", "\"BinaryValue\":\"%%%%\"") + "}]}"), NOT_VALID);
        assertEmpty(url);
    }

    @Test
    void jsonSystemAttributeAndBinaryListBlobsAreChecked() {
        String url = createQueue(unique("b64-json-sys"));
        assertJsonSerialization(http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageSystemAttributes\":" + attr("AWSTraceHeader", "Binary", "\"BinaryValue\":\"@@@@\"") + "}"),
                NOT_VALID);
        assertJsonSerialization(http.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"ok\",\"MessageBody\":\"fine\"},"
                + "{\"Id\":\"bad\",\"MessageBody\":\"b\",\"MessageSystemAttributes\":"
                + attr("AWSTraceHeader", "Binary", "\"BinaryValue\":\"AQI\"") + "}]}"), lengthMessage(3));
        assertJsonSerialization(http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":" + attr("l", "String", "\"StringValue\":\"x\",\"BinaryListValues\":[\"AQ==\",\"*\"]")
                + "}"), lengthMessage(1));
        assertEmpty(url);
    }

    @Test
    void jsonValidBlobStillWorks() {
        String url = createQueue(unique("b64-json-ok"));
        var r = http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":" + attr("blob", "Binary", "\"BinaryValue\":\"AQID\"") + "}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        var got = http.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageAttributeNames\":[\"All\"]}");
        assertThat(Json.parse(got.body()).path("Messages").get(0).path("MessageAttributes").path("blob")
                .path("BinaryValue").asText()).isEqualTo("AQID");
    }

    // --- Query ----------------------------------------------------------------------------------

    private RawHttp.Response query(String... keysAndValues) {
        String[] all = new String[keysAndValues.length + 2];
        all[0] = "Version";
        all[1] = "2012-11-05";
        System.arraycopy(keysAndValues, 0, all, 2, keysAndValues.length);
        return http.query("/", form(all));
    }

    private void assertQueryInvalid(RawHttp.Response r, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.header("content-type")).startsWith("text/xml");
        Xml x = Xml.parse(r.body());
        assertThat(x.rootName()).isEqualTo("ErrorResponse");
        assertThat(x.first("Type")).isEqualTo("Sender");
        assertThat(x.first("Code")).isEqualTo("InvalidParameterValue");
        assertThat(x.first("Message")).isEqualTo(message);
    }

    @Test
    void querySendMessageWithInvalidBase64IsInvalidParameterValue() {
        String url = createQueue(unique("b64-query"));
        for (String bad : new String[] {"not*base64!", "AQ D", "AQ-_", "AQ==AQ==", "AQIDB", "A\u00e9ID"}) {
            assertQueryInvalid(query("Action", "SendMessage", "QueueUrl", url, "MessageBody", "b",
                    "MessageAttribute.1.Name", "blob", "MessageAttribute.1.Value.DataType", "Binary",
                    "MessageAttribute.1.Value.BinaryValue", bad), queryMessage("MessageAttribute.1.Value.BinaryValue"));
        }
        // one character holds no byte: the empty-value answer SQS gave over Query
        var one = query("Action", "SendMessage", "QueueUrl", url, "MessageBody", "b",
                "MessageAttribute.1.Name", "blob", "MessageAttribute.1.Value.DataType", "Binary",
                "MessageAttribute.1.Value.BinaryValue", "1");
        assertQueryInvalid(one, "Message (user) attribute 'blob' must contain a non-empty value of type 'Binary'.");
        assertEmpty(url);
    }

    @Test
    void querySendMessageBatchWithOneInvalidBlobFailsWhollyAndStoresNothing() {
        String url = createQueue(unique("b64-query-batch"));
        assertQueryInvalid(query("Action", "SendMessageBatch", "QueueUrl", url,
                "SendMessageBatchRequestEntry.1.Id", "ok", "SendMessageBatchRequestEntry.1.MessageBody", "fine",
                "SendMessageBatchRequestEntry.2.Id", "bad", "SendMessageBatchRequestEntry.2.MessageBody", "b",
                "SendMessageBatchRequestEntry.2.MessageAttribute.1.Name", "blob",
                "SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType", "Binary",
                "SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.BinaryValue", "!!"),
                queryMessage("SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.BinaryValue"));
        assertEmpty(url);
    }

    @Test
    void querySystemAttributeAndBinaryListBlobsAreChecked() {
        String url = createQueue(unique("b64-query-sys"));
        assertQueryInvalid(query("Action", "SendMessage", "QueueUrl", url, "MessageBody", "b",
                "MessageSystemAttribute.1.Name", "AWSTraceHeader", "MessageSystemAttribute.1.Value.DataType", "Binary",
                "MessageSystemAttribute.1.Value.BinaryValue", "@@@@"),
                queryMessage("MessageSystemAttribute.1.Value.BinaryValue"));
        assertQueryInvalid(query("Action", "SendMessageBatch", "QueueUrl", url,
                "SendMessageBatchRequestEntry.1.Id", "ok", "SendMessageBatchRequestEntry.1.MessageBody", "fine",
                "SendMessageBatchRequestEntry.2.Id", "bad", "SendMessageBatchRequestEntry.2.MessageBody", "b",
                "SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Name", "AWSTraceHeader",
                "SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Value.DataType", "Binary",
                "SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Value.BinaryValue", "#"),
                queryMessage("SendMessageBatchRequestEntry.2.MessageSystemAttribute.1.Value.BinaryValue"));
        assertQueryInvalid(query("Action", "SendMessage", "QueueUrl", url, "MessageBody", "b",
                "MessageAttribute.1.Name", "l", "MessageAttribute.1.Value.DataType", "String",
                "MessageAttribute.1.Value.StringValue", "x", "MessageAttribute.1.Value.BinaryListValue.1", "??"),
                queryMessage("MessageAttribute.1.Value.BinaryListValue.1"));
        assertEmpty(url);
    }

    @Test
    void queryUnpaddedAndWrappedBlobsAreAccepted() {
        String url = createQueue(unique("b64-query-ok"));
        var r = query("Action", "SendMessage", "QueueUrl", url, "MessageBody", "b",
                "MessageAttribute.1.Name", "blob", "MessageAttribute.1.Value.DataType", "Binary",
                "MessageAttribute.1.Value.BinaryValue", "AQID\r\nBA");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        var got = http.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageAttributeNames\":[\"All\"]}");
        assertThat(Json.parse(got.body()).path("Messages").get(0).path("MessageAttributes").path("blob")
                .path("BinaryValue").asText()).isEqualTo("AQIDBA==");
    }

    private void assertEmpty(String url) {
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("0");
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).isEqualTo("0");
        assertThat(attribute(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).isEqualTo("0");
        var got = http.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10}");
        assertThat(Json.parse(got.body()).path("Messages").size()).isZero();
    }
}
