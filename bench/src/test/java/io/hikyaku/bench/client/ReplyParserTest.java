package io.hikyaku.bench.client;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ReplyParserTest {
    private static SqsReply parse(int status, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        byte[] buf = new byte[b.length + 7]; // a reused buffer is longer than the answer in it
        System.arraycopy(b, 0, buf, 0, b.length);
        buf[b.length] = '}';
        return ReplyParser.parse(status, buf, b.length);
    }

    @Test
    void receiveWithTenMessagesKeepsBodiesAndHandlesInOrderAndSkipsTheRest() {
        StringBuilder sb = new StringBuilder("{\"Messages\":[");
        for (int i = 0; i < 10; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"MessageId\":\"m").append(i).append("\",\"ReceiptHandle\":\"rh+/=")
                    .append(i).append("\",\"MD5OfBody\":\"0123\",\"Body\":\"").append(i).append(":0:0:5:x\\\"\\\\\\n\\u00e9\"")
                    .append(",\"Attributes\":{\"SentTimestamp\":\"1\",\"Nested\":{\"a\":[1,{\"b\":null}]}}")
                    .append(",\"MessageAttributes\":{}}");
        }
        SqsReply r = parse(200, sb.append("]}").toString());
        assertThat(r.ok()).isTrue();
        assertThat(r.text()).isNull();
        assertThat(r.bodies()).hasSize(10);
        assertThat(r.receiptHandles()).hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(r.bodies().get(i)).isEqualTo(i + ":0:0:5:x\"\\\n\u00e9");
            assertThat(r.receiptHandles().get(i)).isEqualTo("rh+/=" + i);
        }
        assertThat(r.messageId()).isNull(); // a message's MessageId is not the answer's
    }

    @Test
    void emptyReceiveAndEmptyBody() {
        assertThat(parse(200, "{\"Messages\":[]}").bodies()).isEmpty();
        assertThat(parse(200, "{}").bodies()).isEmpty();
        SqsReply empty = parse(200, "");
        assertThat(empty.ok()).isTrue();
        assertThat(empty.bodies()).isEmpty();
        assertThat(empty.successfulIds()).isEmpty();
    }

    @Test
    void messageWithoutBodyOrHandleOrNotAnObjectIsStillAMessage() {
        SqsReply r = parse(200, "{\"Messages\":[{\"MessageId\":\"x\"},7,{\"Body\":null,\"ReceiptHandle\":3}]}");
        assertThat(r.bodies()).containsExactly(null, null, null);
        assertThat(r.receiptHandles()).containsExactly("", "", "");
    }

    @Test
    void batchAnswerGivesSuccessfulIdsAndFailedEntries() {
        SqsReply r = parse(200, "{\"Successful\":[{\"Id\":\"e0\",\"MessageId\":\"a\",\"MD5OfMessageBody\":\"b\"},"
                + "{\"MessageId\":\"c\",\"Id\":\"e1\",\"SequenceNumber\":\"18\"},{\"Other\":{\"Id\":\"no\"}},\"junk\"],"
                + "\"Failed\":[{\"Id\":\"e2\",\"Code\":\"InternalError\",\"SenderFault\":false,\"Message\":\"m\"}]}");
        assertThat(r.successfulIds()).containsExactly("e0", "e1", null, null);
        assertThat(r.failed()).containsExactly("{\"Id\":\"e2\",\"Code\":\"InternalError\",\"SenderFault\":false,\"Message\":\"m\"}");
        assertThat(r.errorMessage()).isNull(); // an entry's Message is not the answer's
    }

    @Test
    void singleSendAndCreateQueueFields() {
        assertThat(parse(200, "{\"MD5OfMessageBody\":\"x\",\"MessageId\":\"id-1\"}").messageId()).isEqualTo("id-1");
        assertThat(parse(200, "{\"QueueUrl\":\"http://h:1/000000000000/q\"}").queueUrl())
                .isEqualTo("http://h:1/000000000000/q");
    }

    @Test
    void unknownFieldsOfAnyShapeAreSkipped() {
        SqsReply r = parse(200, "{\"a\":1,\"b\":[[],{}],\"c\":{\"Messages\":[{\"Body\":\"no\"}]},\"d\":null,"
                + "\"e\":true,\"f\":1.5e3,\"MessageId\":{\"x\":1},\"Messages\":\"not an array\",\"QueueUrl\":\"q\"}");
        assertThat(r.bodies()).isEmpty();
        assertThat(r.messageId()).isNull();
        assertThat(r.queueUrl()).isEqualTo("q");
    }

    @Test
    void errorAnswerKeepsTypeMessageAndText() {
        String body = "{\"__type\":\"com.amazonaws.sqs#QueueDoesNotExist\",\"message\":\"The queue does not exist.\"}";
        SqsReply r = parse(400, body);
        assertThat(r.ok()).isFalse();
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorType()).isEqualTo("com.amazonaws.sqs#QueueDoesNotExist");
        assertThat(r.errorMessage()).isEqualTo("The queue does not exist.");
        assertThat(r.text()).isEqualTo(body);
        assertThat(r.toString()).isEqualTo("400 " + body);
        assertThat(parse(500, "{\"__type\":\"InternalFailure\",\"Message\":\"boom\"}").errorMessage()).isEqualTo("boom");
        assertThat(parse(503, "").text()).isEmpty();
    }

    @Test
    void notJsonGivesNoFieldsButItsText() {
        for (String body : new String[] {"<html>ok</html>", "[1,2]", "\"s\"", "{\"Messages\":[{\"Body\":\"x\"}", "{\"a\":}"}) {
            SqsReply r = parse(200, body);
            assertThat(r.ok()).as(body).isTrue();
            assertThat(r.bodies()).as(body).isEmpty();
            assertThat(r.text()).as(body).isEqualTo(body);
        }
        assertThat(parse(502, "x".repeat(2000)).text()).hasSize(512);
    }
}
