package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MessagesEndToEndTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    @Test
    void sendReceiveDeleteWithDigests() {
        String url = sqs.createQueue("q", null);
        ObjectNode sent = sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"test\","
                + "\"MessageAttributes\":{\"Foo\":{\"DataType\":\"String\",\"StringValue\":\"Bar\"}},"
                + "\"MessageSystemAttributes\":{\"AWSTraceHeader\":{\"DataType\":\"String\",\"StringValue\":\"Root=1-abc\"}}}");
        assertThat(sent.get("MD5OfMessageBody").asText()).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(sent.get("MD5OfMessageAttributes").asText()).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
        assertThat(sent.get("MD5OfMessageSystemAttributes").asText()).hasSize(32);
        assertThat(sent.has("SequenceNumber")).isFalse();
        String id = sent.get("MessageId").asText();

        ObjectNode got = sqs.receive(url, "\"MessageAttributeNames\":[\"All\"],\"MessageSystemAttributeNames\":[\"All\"]");
        JsonNode m = got.get("Messages").get(0);
        assertThat(m.get("MessageId").asText()).isEqualTo(id);
        assertThat(m.get("Body").asText()).isEqualTo("test");
        assertThat(m.get("MD5OfBody").asText()).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(m.get("MD5OfMessageAttributes").asText()).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
        assertThat(m.get("MessageAttributes").get("Foo").get("StringValue").asText()).isEqualTo("Bar");
        JsonNode attrs = m.get("Attributes");
        assertThat(attrs.get("SenderId").asText()).isEqualTo(ServiceHarness.ACCOUNT);
        assertThat(attrs.get("SentTimestamp").asText()).isEqualTo(Long.toString(sqs.clock.millis()));
        assertThat(attrs.get("ApproximateReceiveCount").asText()).isEqualTo("1");
        assertThat(attrs.get("AWSTraceHeader").asText()).isEqualTo("Root=1-abc");

        assertThat(sqs.receive(url, null).has("Messages")).isFalse(); // in flight
        sqs.call("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + m.get("ReceiptHandle").asText() + "\"}");
        sqs.clock.advance(Duration.ofSeconds(31));
        assertThat(sqs.receive(url, null).has("Messages")).isFalse(); // deleted for good
    }

    @Test
    void binaryAttributesComeBackBase64() {
        String url = sqs.createQueue("bin", null);
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":{\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQID\"}}}");
        JsonNode m = sqs.receive(url, "\"MessageAttributeNames\":[\"blob\"]").get("Messages").get(0);
        assertThat(m.get("MessageAttributes").get("blob").get("BinaryValue").asText()).isEqualTo("AQID");
        assertThat(m.get("MessageAttributes").get("blob").get("DataType").asText()).isEqualTo("Binary");
    }

    @Test
    void invalidBase64InABinaryAttributeIsASerializationExceptionAndStoresNothing() {
        String url = sqs.createQueue("bad64", null);
        String badChars = "Base64 encoded value is not valid";
        String[][] cases = {
            {"!!!!", badChars}, {"AQ==AQ==", badChars}, {"AQ-_", badChars}, {"A\u00e9ID", badChars},
            {"=AQI", badChars}, {"A", lengthMessage(1)}, {"AQ", lengthMessage(2)}, {"AQ\r\nID", lengthMessage(6)},
        };
        for (String[] c : cases) {
            String bad = c[0].replace("\r", "\\r").replace("\n", "\\n");
            ApiException e = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                    + "\"MessageAttributes\":{\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"" + bad + "\"}}}");
            assertThat(e.errorType()).as(c[0]).isEqualTo("SerializationException");
            assertThat(e.getMessage()).as(c[0]).isEqualTo(c[1]);
            ApiException batch = sqs.error("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                    + "{\"Id\":\"ok\",\"MessageBody\":\"fine\"},"
                    + "{\"Id\":\"bad\",\"MessageBody\":\"b\",\"MessageAttributes\":{\"blob\":{\"DataType\":\"Binary\","
                    + "\"BinaryValue\":\"" + bad + "\"}}}]}");
            assertThat(batch.errorType()).as("batch " + c[0]).isEqualTo("SerializationException");
            assertThat(batch.getMessage()).as("batch " + c[0]).isEqualTo(c[1]);
        }
        // the whole batch failed, the good entry included: the queue is still empty
        assertThat(sqs.receive(url, null).has("Messages")).isFalse();
    }

    private static String lengthMessage(int n) {
        return "Base64 encoded length is expected a multiple of 4 bytes but found: " + n;
    }

    @Test
    void blobsAreCheckedBeforeAnythingElse() {
        String url = sqs.createQueue("bad64first", null);
        // no MessageBody, a String DataType, a missing queue: the blob still fails first, as Coral deserialises first
        ApiException e = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "-missing\","
                + "\"MessageAttributes\":{\"s\":{\"DataType\":\"String\",\"StringValue\":\"x\",\"BinaryValue\":\"!!!!\"}}}");
        assertThat(e.errorType()).isEqualTo("SerializationException");
        // a batch whose first entry is bad on its own (no body) and second has a bad blob
        ApiException batch = sqs.error("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"nobody\"},{\"Id\":\"bad\",\"MessageBody\":\"b\",\"MessageSystemAttributes\":"
                + "{\"AWSTraceHeader\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQ\"}}}]}");
        assertThat(batch.errorType()).isEqualTo("SerializationException");
        assertThat(batch.getMessage()).isEqualTo(lengthMessage(2));
        assertThat(sqs.receive(url, null).has("Messages")).isFalse();
    }

    @Test
    void systemAttributeAndBinaryListBlobsAreChecked() {
        String url = sqs.createQueue("bad64sys", null);
        ApiException sys = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageSystemAttributes\":{\"AWSTraceHeader\":{\"DataType\":\"Binary\",\"BinaryValue\":\"@@@@\"}}}");
        assertThat(sys.errorType()).isEqualTo("SerializationException");
        assertThat(sys.getMessage()).isEqualTo("Base64 encoded value is not valid");
        ApiException list = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":{\"s\":{\"DataType\":\"String\",\"StringValue\":\"x\","
                + "\"BinaryListValues\":[\"AQ==\",\"AQI\"]}}}");
        assertThat(list.errorType()).isEqualTo("SerializationException");
        assertThat(list.getMessage()).isEqualTo(lengthMessage(3));
        ApiException notAString = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":{\"b\":{\"DataType\":\"Binary\",\"BinaryValue\":12}}}");
        assertThat(notAString.errorType()).isEqualTo("SerializationException");
        assertThat(sqs.receive(url, null).has("Messages")).isFalse();
        // a valid trace header in binary form is not a blob error: the String-type rule answers
        ApiException type = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageSystemAttributes\":{\"AWSTraceHeader\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQ==\"}}}");
        assertThat(type.errorType()).isEqualTo("InvalidParameterValue");
    }

    @Test
    void paddedBase64IsAcceptedAndAnEmptyBlobIsAnEmptyValue() {
        String url = sqs.createQueue("ok64", null);
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":{\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"AQ==\"}}}");
        JsonNode m = sqs.receive(url, "\"MessageAttributeNames\":[\"All\"]").get("Messages").get(0);
        assertThat(m.get("MessageAttributes").get("blob").get("BinaryValue").asText()).isEqualTo("AQ==");
        ApiException empty = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\","
                + "\"MessageAttributes\":{\"blob\":{\"DataType\":\"Binary\",\"BinaryValue\":\"\"}}}");
        assertThat(empty.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(empty.getMessage()).isEqualTo("Message (user) attribute 'blob' must contain a non-empty value of type 'Binary'.");
    }

    @Test
    void visibilityTimeoutExpiresWhenTheClockMoves() {
        String url = sqs.createQueue("vis", null);
        sqs.send(url, "hello");
        assertThat(sqs.receive(url, "\"VisibilityTimeout\":10").get("Messages")).hasSize(1);
        sqs.clock.advance(Duration.ofSeconds(9));
        assertThat(sqs.receive(url, null).has("Messages")).isFalse();
        sqs.clock.advance(Duration.ofSeconds(2));
        JsonNode again = sqs.receive(url, "\"AttributeNames\":[\"ApproximateReceiveCount\"]").get("Messages").get(0);
        assertThat(again.get("Attributes").get("ApproximateReceiveCount").asText()).isEqualTo("2");
    }

    @Test
    void changeVisibilityToZeroMakesTheMessageVisibleAgain() {
        String url = sqs.createQueue("cmv", null);
        sqs.send(url, "x");
        String handle = sqs.receive(url, null).get("Messages").get(0).get("ReceiptHandle").asText();
        sqs.call("ChangeMessageVisibility", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":0}");
        assertThat(sqs.receive(url, null).get("Messages")).hasSize(1);
        ApiException missing = sqs.error("ChangeMessageVisibility", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}");
        assertThat(missing.getMessage()).isEqualTo("The request must contain the parameter VisibilityTimeout.");
    }

    @Test
    void garbageReceiptHandle() {
        String url = sqs.createQueue("rh", null);
        ApiException e = sqs.error("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"garbage\"}");
        assertThat(e.errorType()).isEqualTo("ReceiptHandleIsInvalid");
        assertThat(e.getMessage()).isEqualTo("The input receipt handle \"garbage\" is not a valid receipt handle.");
    }

    @Test
    void receiveParameterRanges() {
        String url = sqs.createQueue("ranges", null);
        ApiException max = sqs.error("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":11}");
        assertThat(max.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(max.getMessage()).isEqualTo(
                "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        for (int wait : new int[] {21, -1}) {
            ApiException w = sqs.error("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":" + wait + "}");
            assertThat(w.getMessage()).isEqualTo(
                    "Value " + wait + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.");
        }
        ApiException type = sqs.error("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":\"5\"}");
        assertThat(type.errorType()).isEqualTo("SerializationException");
        assertThat(type.getMessage()).isEqualTo("STRING_VALUE can not be converted to an Integer");
    }

    @Test
    void queryTextNumbersAreAccepted() {
        String url = sqs.createQueue("query", null);
        for (int i = 0; i < 3; i++) {
            sqs.query("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"m" + i + "\",\"DelaySeconds\":\"0\"}");
        }
        ObjectNode got = sqs.query("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":\"10\","
                + "\"WaitTimeSeconds\":\"0\",\"AttributeNames\":[\"SenderId\"],\"MessageSystemAttributeNames\":[\"All\"]}");
        assertThat(got.get("Messages")).hasSize(3);
        // Over Query only AttributeNames counts.
        assertThat(got.get("Messages").get(0).get("Attributes").size()).isEqualTo(1);
    }

    @Test
    void sendValidation() {
        String url = sqs.createQueue("val", "{\"MaximumMessageSize\":\"1024\"}");
        ApiException empty = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"\"}");
        assertThat(empty.errorType()).isEqualTo("MissingRequiredParameterException");
        assertThat(empty.getMessage()).isEqualTo("The request must contain the parameter MessageBody.");
        ApiException chars = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"\\u0000\"}");
        assertThat(chars.errorType()).isEqualTo("InvalidMessageContents");
        sqs.send(url, "x".repeat(1024));
        ApiException big = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + "x".repeat(1025) + "\"}");
        assertThat(big.getMessage()).isEqualTo(
                "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.");
        ApiException unknown = sqs.error("SendMessage",
                "{\"QueueUrl\":\"http://other:1/000000000000/nope\",\"MessageBody\":\"x\"}");
        assertThat(unknown.errorType()).isEqualTo("QueueDoesNotExist");
    }

    @Test
    void fifoSendReturnsIncreasingSequenceNumbers() {
        String url = sqs.createQueue("f.fifo", "{\"FifoQueue\":\"true\",\"ContentBasedDeduplication\":\"true\"}");
        ObjectNode a = sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"a\",\"MessageGroupId\":\"g\"}");
        ObjectNode b = sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\",\"MessageGroupId\":\"g\"}");
        assertThat(new java.math.BigInteger(b.get("SequenceNumber").asText()))
                .isGreaterThan(new java.math.BigInteger(a.get("SequenceNumber").asText()));
        ApiException noGroup = sqs.error("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"c\"}");
        assertThat(noGroup.getMessage()).isEqualTo("The request must contain the parameter MessageGroupId.");
        JsonNode m = sqs.receive(url, "\"MessageSystemAttributeNames\":[\"All\"]").get("Messages").get(0);
        assertThat(m.get("Attributes").get("MessageGroupId").asText()).isEqualTo("g");
        assertThat(m.get("Attributes").has("SequenceNumber")).isTrue();
    }
}
