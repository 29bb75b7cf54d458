package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.SqsErrors;
import io.hikyaku.it.support.SqsTestBase;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/** SendMessage validation, MD5s, ReceiveMessage parameters and attribute selection (behaviours 23-31, 37-45). */
class SendReceiveTest extends SqsTestBase {

    static MessageAttributeValue str(String v) {
        return MessageAttributeValue.builder().dataType("String").stringValue(v).build();
    }

    private Message receiveOne(String url, List<String> attributeNames) {
        ReceiveMessageResponse r = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)
                .messageAttributeNames(attributeNames));
        assertThat(r.messages()).hasSize(1);
        return r.messages().get(0);
    }

    @Test
    void sendAndReceiveRoundTrip_v2() {
        String url = createQueue(unique("sr"));
        SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("hello"));
        assertThat(sent.messageId()).isNotBlank();
        assertThat(sent.sequenceNumber()).isNull();
        Message m = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0);
        assertThat(m.body()).isEqualTo("hello");
        assertThat(m.messageId()).isEqualTo(sent.messageId());
        assertThat(m.receiptHandle()).isNotBlank();
        assertThat(m.md5OfBody()).isEqualTo(sent.md5OfMessageBody());
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle()));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)).hasMessages()).isFalse();
    }

    @Test
    void sendAndReceiveWithAllAttributeTypes_v1() {
        String url = sqsV1.createQueue(unique("sr1")).getQueueUrl();
        Map<String, com.amazonaws.services.sqs.model.MessageAttributeValue> attrs = new HashMap<>();
        attrs.put("Foo", new com.amazonaws.services.sqs.model.MessageAttributeValue().withDataType("String").withStringValue("Bar"));
        attrs.put("Num", new com.amazonaws.services.sqs.model.MessageAttributeValue().withDataType("Number.float").withStringValue("3.14"));
        attrs.put("Bin", new com.amazonaws.services.sqs.model.MessageAttributeValue().withDataType("Binary")
                .withBinaryValue(java.nio.ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 255})));
        var sent = sqsV1.sendMessage(new com.amazonaws.services.sqs.model.SendMessageRequest(url, "v1 body")
                .withMessageAttributes(attrs));
        assertThat(sent.getMD5OfMessageBody()).isEqualTo(md5Hex("v1 body"));
        var got = sqsV1.receiveMessage(new com.amazonaws.services.sqs.model.ReceiveMessageRequest(url)
                .withMessageAttributeNames("All").withAttributeNames("All")).getMessages();
        assertThat(got).hasSize(1);
        var m = got.get(0);
        assertThat(m.getBody()).isEqualTo("v1 body");
        assertThat(m.getMessageAttributes()).containsOnlyKeys("Foo", "Num", "Bin");
        assertThat(m.getMessageAttributes().get("Num").getDataType()).isEqualTo("Number.float");
        assertThat(m.getMessageAttributes().get("Bin").getBinaryValue().array()).containsExactly(0, 1, 2, 255);
        assertThat(m.getMD5OfMessageAttributes()).isEqualTo(sent.getMD5OfMessageAttributes());
        assertThat(m.getAttributes()).containsKeys("SenderId", "SentTimestamp", "ApproximateReceiveCount",
                "ApproximateFirstReceiveTimestamp");
        sqsV1.deleteMessage(url, m.getReceiptHandle());
        assertThat(sqsV1.receiveMessage(url).getMessages()).isEmpty();
    }

    @Test
    void binaryAndCustomTypedAttributesRoundTrip_v2() {
        String url = createQueue(unique("sr-bin"));
        Map<String, MessageAttributeValue> attrs = Map.of(
                "b", MessageAttributeValue.builder().dataType("Binary.gif").binaryValue(SdkBytes.fromByteArray(new byte[] {9, 8, 7})).build(),
                "n", MessageAttributeValue.builder().dataType("Number").stringValue("-12.5e3").build(),
                "s", MessageAttributeValue.builder().dataType("String.custom").stringValue("ünïcødé ✓").build());
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("typed").messageAttributes(attrs));
        Message m = receiveOne(url, List.of("All"));
        assertThat(m.messageAttributes()).isEqualTo(attrs);
    }

    @Test
    void b23_emptyOrMissingMessageBody() {
        String url = createQueue(unique("sr"));
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("")), "MissingParameter",
                "The request must contain the parameter MessageBody.");
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url)), "MissingParameter",
                "The request must contain the parameter MessageBody.");
        assertV1Error(() -> sqsV1.sendMessage(url, ""), "MissingParameter",
                "The request must contain the parameter MessageBody.");
        var raw = http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"\"}");
        assertThat(raw.header("x-amzn-query-error")).isEqualTo("MissingParameter;Sender");
        assertThat(Json.parse(raw.body()).path("__type").asText()).endsWith("MissingRequiredParameterException");
    }

    @Test
    void b24_bodyPlusAttributesOver1MiB() {
        String url = createQueue(unique("sr-big"));
        String body = "a".repeat(1048570);
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody(body).messageAttributes(Map.of("k", str("1234567")))),
                "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.");
        // exactly 1 MiB is accepted and comes back whole
        String max = "b".repeat(1048576);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody(max));
        assertThat(receiveOne(url, List.of()).body()).isEqualTo(max);
        var raw = http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + max + "c\"}");
        assertThat(Json.parse(raw.body()).path("__type").asText()).endsWith("InvalidParameterValueException");
    }

    @Test
    void b25_queueMaximumMessageSizeCountsAttributes() {
        String url = createQueue(unique("sr-1k"), Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(1024)));
        // 1020 + len("ab") + len("String") + len("c") = 1029
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(1020)).messageAttributes(Map.of("ab", str("c")))),
                "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.");
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(1025))),
                "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.");
    }

    @Test
    void b26_bodyWithCharactersOutsideTheAllowedSet() {
        String url = createQueue(unique("sr-chars"));
        for (String bad : new String[] {"a\u0000b", "a\u0008b", "\u0013", "x\uFFFF"}) {
            assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody(bad)), "InvalidMessageContents", null);
        }
        String fine = "tab\t nl\n cr\r emoji \uD83D\uDE00 private \uE000 end \uFFFD";
        sqs.sendMessage(b -> b.queueUrl(url).messageBody(fine));
        assertThat(receiveOne(url, List.of()).body()).isEqualTo(fine);
    }

    @Test
    void b27_emptyStringAttributeValue() {
        String url = createQueue(unique("sr-attr"));
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(Map.of("ErrorDetails", str("")))),
                "InvalidParameterValue", "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.");
    }

    @Test
    void b28_controlCharactersInStringAttributeValue() {
        String url = createQueue(unique("sr-attr"));
        for (String bad : new String[] {"a\u0008", "b\u000B"}) {
            assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(Map.of("k", str(bad)))),
                    "InvalidParameterValue", null);
        }
    }

    @Test
    void b29_invalidAttributeNamesAndTypes() {
        String url = createQueue(unique("sr-names"));
        List<String> badNames = List.of("AWS.x", "aws.y", "Amazon.z", "AMAZON.w", ".lead", "a!b", "a\"b", "a§b", "a(b", "a?b",
                "n".repeat(257), "trailing.");
        for (String name : badNames) {
            var e = SqsErrors.v2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(Map.of(name, str("v")))));
            assertThat(e.awsErrorDetails().errorCode()).as("name %s", name).startsWith("Invalid");
            assertThat(e.statusCode()).as("name %s", name).isEqualTo(400);
        }
        for (String type : new String[] {"Invalid", "String." + "t".repeat(256)}) {
            var e = SqsErrors.v2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(
                    Map.of("k", MessageAttributeValue.builder().dataType(type).stringValue("v").build()))));
            assertThat(e.awsErrorDetails().errorCode()).as("type %s", type).startsWith("Invalid");
        }
        Map<String, MessageAttributeValue> ok = Map.of("attr.1øßä", str("fine"), "n".repeat(256), str("long"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(ok));
        assertThat(receiveOne(url, List.of("All")).messageAttributes()).isEqualTo(ok);
    }

    @Test
    void moreThanTenMessageAttributesAreRefused() {
        String url = createQueue(unique("sr-many"));
        Map<String, MessageAttributeValue> eleven = new HashMap<>();
        for (int i = 0; i < 11; i++) {
            eleven.put("a" + i, str("v"));
        }
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(eleven)),
                "InvalidParameterValue", null);
        eleven.remove("a10");
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(eleven));
    }

    @Test
    void b30_fairQueueMessageGroupIdOnStandardQueue() {
        String url = createQueue(unique("sr-fair"));
        SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("tenant").messageGroupId("tenant-a"));
        assertThat(sent.sequenceNumber()).isNull();
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().get(0);
        assertThat(m.attributesAsStrings()).containsEntry("MessageGroupId", "tenant-a").doesNotContainKey("SequenceNumber");
    }

    @Test
    void b31_invalidMessageGroupIdOnStandardQueue() {
        String url = createQueue(unique("sr-fair"));
        for (String bad : new String[] {"", "g".repeat(129), "has space"}) {
            assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageGroupId(bad)), "InvalidParameterValue",
                    "Value " + bad + " for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric"
                            + " and punctuation characters. 1 to 128 in length.");
        }
    }

    @Test
    void b37_md5OfMessageBody() {
        String url = createQueue(unique("sr-md5"));
        assertThat(sqs.sendMessage(b -> b.queueUrl(url).messageBody("test")).md5OfMessageBody())
                .isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(sqsV1.sendMessage(url, "msg").getMD5OfMessageBody()).isEqualTo("6e2baaf3b97dbeef01c0043275f9a0e7");
        Message m = receiveOne(url, List.of());
        assertThat(m.md5OfBody()).isEqualTo(md5Hex(m.body()));
    }

    @Test
    void b38_md5OfMessageAttributes() {
        String url = createQueue(unique("sr-md5"));
        assertThat(sqs.sendMessage(b -> b.queueUrl(url).messageBody("m").messageAttributes(Map.of("Foo", str("Bar"))))
                .md5OfMessageAttributes()).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
        assertThat(sqs.sendMessage(b -> b.queueUrl(url).messageBody("m").messageAttributes(
                Map.of("General", str("Kenobi"), "Hello", str("There"), "Help.Me", str("Me")))).md5OfMessageAttributes())
                .isEqualTo("4c360f3fdafd970e05fae2f149d997f5");
        // without attributes there is no attribute MD5
        assertThat(sqs.sendMessage(b -> b.queueUrl(url).messageBody("m")).md5OfMessageAttributes()).isNull();
    }

    @Test
    void b39_systemAttributesDoNotChangeAttributeMd5() {
        String url = createQueue(unique("sr-trace"));
        String trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1";
        SendMessageResponse sent = sqs.sendMessage(b -> b.queueUrl(url).messageBody("traced")
                .messageAttributes(Map.of("Foo", str("Bar")))
                .messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
                        MessageSystemAttributeValue.builder().dataType("String").stringValue(trace).build())));
        assertThat(sent.md5OfMessageAttributes()).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
        assertThat(sent.md5OfMessageSystemAttributes()).isNotBlank();
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).messageAttributeNames("All")
                .messageSystemAttributeNames(MessageSystemAttributeName.AWS_TRACE_HEADER)).messages().get(0);
        assertThat(m.attributes()).containsEntry(MessageSystemAttributeName.AWS_TRACE_HEADER, trace);
        assertThat(m.md5OfMessageAttributes()).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
    }

    @Test
    void b40_maxNumberOfMessagesOutOfRange() {
        String url = createQueue(unique("sr-max"));
        assertV2Error(() -> sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(11)), "InvalidParameterValue",
                "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        assertV2Error(() -> sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(0)), "InvalidParameterValue",
                "Value 0 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        assertV1Error(() -> sqsV1.receiveMessage(new com.amazonaws.services.sqs.model.ReceiveMessageRequest(url).withMaxNumberOfMessages(11)),
                "InvalidParameterValue",
                "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
    }

    @Test
    void b41_waitTimeSecondsOutOfRange() {
        String url = createQueue(unique("sr-wait"));
        for (int bad : new int[] {21, -1}) {
            assertV2Error(() -> sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(bad)), "InvalidParameterValue",
                    "Value " + bad + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.");
        }
    }

    @Test
    void receiveVisibilityTimeoutOutOfRange() {
        String url = createQueue(unique("sr-vis"));
        assertV2Error(() -> sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(43201)), "InvalidParameterValue", null);
    }

    @Test
    void b42_emptyQueueHasNoMessagesKey() { // the long-poll variant is in LongPollTest
        String url = createQueue(unique("sr-empty"));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).hasMessages()).isFalse();
        var raw = http.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}");
        assertThat(raw.status()).isEqualTo(200);
        assertThat(Json.parse(raw.body()).has("Messages")).isFalse();
        assertThat(sqsV1.receiveMessage(url).getMessages()).isEmpty();
    }

    @Test
    void b43_allSystemAttributesOnStandardQueue() {
        String url = createQueue(unique("sr-sys"));
        long sentAt = clock.millis();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("sys"));
        for (int expectedCount = 1; expectedCount <= 2; expectedCount++) {
            Message m = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(0)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages().get(0);
            assertThat(m.attributesAsStrings()).containsOnlyKeys("ApproximateFirstReceiveTimestamp",
                    "ApproximateReceiveCount", "SenderId", "SentTimestamp");
            assertThat(m.attributesAsStrings()).containsEntry("ApproximateReceiveCount", String.valueOf(expectedCount))
                    .containsEntry("SentTimestamp", String.valueOf(sentAt))
                    .containsEntry("ApproximateFirstReceiveTimestamp", String.valueOf(sentAt));
        }
        // nothing asked, nothing given
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).attributes()).isEmpty();
    }

    @Test
    void b44_messageAttributeNameFiltering() {
        String url = createQueue(unique("sr-filter"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("filtered").messageAttributes(
                Map.of("General", str("Kenobi"), "Hello", str("There"), "Help.Me", str("Me"))));
        assertThat(receiveOne(url, List.of()).messageAttributes()).isEmpty();
        for (String all : new String[] {"All", "*", ".*"}) {
            Message m = receiveOne(url, List.of(all));
            assertThat(m.messageAttributes()).as(all).containsOnlyKeys("General", "Hello", "Help.Me");
            assertThat(m.md5OfMessageAttributes()).isEqualTo("4c360f3fdafd970e05fae2f149d997f5");
        }
        Message hello = receiveOne(url, List.of("Hello"));
        assertThat(hello.messageAttributes()).containsOnlyKeys("Hello");
        assertThat(hello.md5OfMessageAttributes()).isEqualTo("a311262e065454b75da111d535b8dacd");
        assertThat(receiveOne(url, List.of("Unknown")).messageAttributes()).isEmpty();
        assertThat(receiveOne(url, List.of("Hel.*")).messageAttributes()).containsOnlyKeys("Hello", "Help.Me");
        assertThat(receiveOne(url, List.of("AWS.")).messageAttributes()).isEmpty();
        assertThat(receiveOne(url, List.of("..foo")).messageAttributes()).isEmpty();
    }

    @Test
    void b45_messageSystemAttributeNamesWinOverAttributeNames_json() {
        String url = createQueue(unique("sr-sysnames"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("x"));
        Message m = sqs.receiveMessage(b -> b.queueUrl(url)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                .attributeNamesWithStrings("SenderId")).messages().get(0);
        assertThat(m.attributesAsStrings()).containsOnlyKeys("ApproximateFirstReceiveTimestamp",
                "ApproximateReceiveCount", "SenderId", "SentTimestamp");
    }

    @Test
    void receiveUpToTenMessages() {
        String url = createQueue(unique("sr-ten"));
        for (int i = 0; i < 12; i++) {
            int n = i;
            sqs.sendMessage(b -> b.queueUrl(url).messageBody("m" + n));
        }
        var seen = new java.util.HashSet<String>();
        for (int round = 0; round < 6 && seen.size() < 12; round++) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
            assertThat(got.size()).isLessThanOrEqualTo(10);
            got.forEach(m -> assertThat(seen.add(m.body())).as("no duplicate while in flight").isTrue());
        }
        assertThat(seen).hasSize(12);
    }

    @Test
    void b26_loneSurrogateInJsonBody() {
        String url = createQueue(unique("sr-surrogate"));
        var raw = http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"bad \\ud800 half\"}");
        assertThat(raw.status()).isEqualTo(400);
        assertThat(raw.header("x-amzn-query-error")).isEqualTo("InvalidMessageContents;Sender");
    }

    @Test
    void xrayTraceHeaderBecomesAwsTraceHeader() {
        String url = createQueue(unique("sr-xray"));
        String trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
        var sent = http.send(http.request("/").header("Content-Type", io.hikyaku.it.support.RawHttp.JSON_TYPE)
                .header("X-Amz-Target", "AmazonSQS.SendMessage").header("X-Amzn-Trace-Id", trace)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"traced\"}")));
        assertThat(sent.status()).isEqualTo(200);
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(MessageSystemAttributeName.AWS_TRACE_HEADER))
                .messages().get(0);
        assertThat(m.attributes()).containsEntry(MessageSystemAttributeName.AWS_TRACE_HEADER, trace);
    }

    @Test
    void numberAttributeMustBeANumberAndBinaryMustNotBeEmpty() {
        String url = createQueue(unique("sr-types"));
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(Map.of("n",
                MessageAttributeValue.builder().dataType("Number").stringValue("not a number").build()))),
                "InvalidParameterValue", null);
        assertV2Error(() -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x").messageAttributes(Map.of("b",
                MessageAttributeValue.builder().dataType("Binary").binaryValue(SdkBytes.fromByteArray(new byte[0])).build()))),
                "InvalidParameterValue", null);
    }

    static String md5Hex(String s) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("MD5").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
