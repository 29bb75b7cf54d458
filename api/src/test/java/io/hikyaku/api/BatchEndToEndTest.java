package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BatchEndToEndTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    private static JsonNode failedEntry(ObjectNode result, String id) {
        for (JsonNode f : result.path("Failed")) {
            if (f.get("Id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no failed entry " + id + " in " + result);
    }

    @Test
    void mixedSuccessAndFailure() {
        String url = sqs.createQueue("batch", "{\"MaximumMessageSize\":\"1024\"}");
        ObjectNode out = sqs.call("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"ok\",\"MessageBody\":\"test\"},"
                + "{\"Id\":\"big\",\"MessageBody\":\"" + "x".repeat(1025) + "\"},"
                + "{\"Id\":\"bad\",\"MessageBody\":\"\\u0001\"},"
                + "{\"Id\":\"empty\",\"MessageBody\":\"\"}]}");
        assertThat(out.get("Successful")).hasSize(1);
        JsonNode ok = out.get("Successful").get(0);
        assertThat(ok.get("Id").asText()).isEqualTo("ok");
        assertThat(ok.get("MD5OfMessageBody").asText()).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(ok.get("MessageId").asText()).isNotEmpty();
        assertThat(out.get("Failed")).hasSize(3);
        JsonNode big = failedEntry(out, "big");
        assertThat(big.get("Code").asText()).isEqualTo("InvalidParameterValue");
        assertThat(big.get("SenderFault").asBoolean()).isTrue();
        assertThat(big.get("Message").asText()).isEqualTo(
                "One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.");
        assertThat(failedEntry(out, "bad").get("Code").asText()).isEqualTo("InvalidMessageContents");
        assertThat(failedEntry(out, "empty").get("Code").asText()).isEqualTo("MissingParameter");
        assertThat(sqs.receive(url, "\"MaxNumberOfMessages\":10").get("Messages")).hasSize(1);
    }

    @Test
    void wholeRequestErrors() {
        String url = sqs.createQueue("whole", null);
        ApiException empty = sqs.error("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[]}");
        assertThat(empty.errorType()).isEqualTo("EmptyBatchRequest");
        ApiException dup = sqs.error("DeleteMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"id_1\",\"ReceiptHandle\":\"a\"},{\"Id\":\"id_2\",\"ReceiptHandle\":\"a\"},"
                + "{\"Id\":\"id_2\",\"ReceiptHandle\":\"a\"},{\"Id\":\"id_1\",\"ReceiptHandle\":\"a\"}]}");
        assertThat(dup.errorType()).isEqualTo("BatchEntryIdsNotDistinct");
        assertThat(dup.getMessage()).isEqualTo("Id id_2 repeated.");
        String half = "x".repeat(524_289);
        ApiException tooLong = sqs.error("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"MessageBody\":\"" + half + "\"},{\"Id\":\"b\",\"MessageBody\":\"" + half + "\"}]}");
        assertThat(tooLong.errorType()).isEqualTo("BatchRequestTooLong");
        assertThat(tooLong.getMessage()).isEqualTo(
                "Batch requests cannot be longer than 1048576 bytes. You have sent 1048578 bytes.");
        ApiException unknown = sqs.error("SendMessageBatch",
                "{\"QueueUrl\":\"http://x/000000000000/nope\",\"Entries\":[{\"Id\":\"a\",\"MessageBody\":\"\"}]}");
        assertThat(unknown.errorType()).isEqualTo("QueueDoesNotExist");
    }

    @Test
    void fifoEntryWithoutGroupFailsTheWholeRequest() {
        String url = sqs.createQueue("w.fifo", "{\"FifoQueue\":\"true\",\"ContentBasedDeduplication\":\"true\"}");
        ApiException e = sqs.error("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"MessageBody\":\"x\",\"MessageGroupId\":\"g\"},{\"Id\":\"b\",\"MessageBody\":\"y\"}]}");
        assertThat(e.errorType()).isEqualTo("InvalidParameterValue");
        assertThat(e.getMessage()).isEqualTo("The request must contain the parameter MessageGroupId.");
    }

    @Test
    void deleteAndChangeVisibilityBatches() {
        String url = sqs.createQueue("dv", null);
        sqs.send(url, "a");
        sqs.send(url, "b");
        JsonNode msgs = sqs.receive(url, "\"MaxNumberOfMessages\":10").get("Messages");
        assertThat(msgs).hasSize(2);
        String h0 = msgs.get(0).get("ReceiptHandle").asText();
        String h1 = msgs.get(1).get("ReceiptHandle").asText();
        ObjectNode cmv = sqs.call("ChangeMessageVisibilityBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"zero\",\"ReceiptHandle\":\"" + h0 + "\",\"VisibilityTimeout\":0},"
                + "{\"Id\":\"junk\",\"ReceiptHandle\":\"garbage\",\"VisibilityTimeout\":0}]}");
        assertThat(cmv.get("Successful")).hasSize(1);
        assertThat(failedEntry(cmv, "junk").get("Code").asText()).isEqualTo("ReceiptHandleIsInvalid");
        ObjectNode del = sqs.call("DeleteMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"one\",\"ReceiptHandle\":\"" + h1 + "\"},{\"Id\":\"none\"}]}");
        assertThat(del.get("Successful")).hasSize(1);
        assertThat(failedEntry(del, "none").get("Code").asText()).isEqualTo("MissingParameter");
        assertThat(sqs.receive(url, "\"MaxNumberOfMessages\":10").get("Messages")).hasSize(1);
    }

    @Test
    void aBatchSendWakesSeveralWaiters() {
        String url = sqs.createQueue("wake", null);
        var w1 = sqs.start("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}");
        var w2 = sqs.start("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}");
        sqs.call("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"MessageBody\":\"1\"},{\"Id\":\"b\",\"MessageBody\":\"2\"}]}");
        assertThat(ServiceHarness.await(w1).get("Messages")).hasSize(1);
        assertThat(ServiceHarness.await(w2).get("Messages")).hasSize(1);
    }

    @Test
    void queryBatchesAcceptTextNumbersAndJsonTypeErrorsFailTheWholeRequest() {
        String url = sqs.createQueue("qb", null);
        ObjectNode sent = sqs.query("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"MessageBody\":\"1\",\"DelaySeconds\":\"0\"}]}");
        assertThat(sent.get("Successful")).hasSize(1);
        String handle = sqs.query("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}").get("Messages").get(0)
                .get("ReceiptHandle").asText();
        ObjectNode cmv = sqs.query("ChangeMessageVisibilityBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":\"0\"}]}");
        assertThat(cmv.get("Successful")).hasSize(1);
        ApiException e = sqs.error("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"MessageBody\":\"1\",\"DelaySeconds\":\"0\"}]}");
        assertThat(e.errorType()).isEqualTo("SerializationException");
    }
}
