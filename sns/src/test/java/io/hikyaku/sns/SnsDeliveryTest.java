package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.api.SqsServices;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.WireProtocol;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Publish through SnsApi into real in-memory SQS queues, and read what the queues received. */
class SnsDeliveryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = "000000000000";
    private final SqsService sqs = SqsServices.create(new MemoryStore(), Clock.systemUTC());
    private final SnsPublisher publisher = new SnsPublisher(sqs, "us-east-1");
    private final SnsApi api;

    SnsDeliveryTest() throws Exception {
        api = SnsApi.create(SnsTopics.open(SnsJournal.memory()), "us-east-1", publisher);
    }

    @AfterEach
    void close() {
        sqs.close();
    }

    private String sns(String... pairs) {
        Map<String, String> form = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            form.put(pairs[i], pairs[i + 1]);
        }
        StringBuilder body = new StringBuilder("Version=2010-03-31");
        form.forEach((k, v) -> body.append('&').append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        HttpResponseData r = api.handle(new HttpRequestData("POST", "/", "", Map.of("host", "127.0.0.1:9324"),
                body.toString().getBytes(StandardCharsets.UTF_8)), ACCOUNT).join();
        String text = new String(r.body(), StandardCharsets.UTF_8);
        assertThat(r.status()).as(text).isEqualTo(200);
        return text;
    }

    private static String field(String xml, String element) {
        Matcher m = Pattern.compile("<" + element + ">([^<]*)</" + element + ">").matcher(xml);
        assertThat(m.find()).as(xml).isTrue();
        return m.group(1);
    }

    private ObjectNode sqs(String action, ObjectNode input) {
        return sqs.invoke(new CallContext(ACCOUNT, "us-east-1", "http://127.0.0.1:9324", null, "t"),
                new ApiRequest(action, input, WireProtocol.JSON, true, "/")).join();
    }

    private String queue(String name, boolean fifo) {
        ObjectNode in = JSON.createObjectNode().put("QueueName", name);
        if (fifo) {
            in.putObject("Attributes").put("FifoQueue", "true");
        }
        sqs("CreateQueue", in);
        return "arn:aws:sqs:us-east-1:" + ACCOUNT + ":" + name;
    }

    private List<JsonNode> receive(String name) {
        List<JsonNode> out = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            ObjectNode in = JSON.createObjectNode().put("QueueUrl", "http://127.0.0.1:9324/" + ACCOUNT + "/" + name)
                    .put("MaxNumberOfMessages", 10).put("WaitTimeSeconds", 0);
            in.putArray("MessageAttributeNames").add("All");
            in.putArray("MessageSystemAttributeNames").add("All");
            for (Iterator<JsonNode> it = sqs("ReceiveMessage", in).path("Messages").elements(); it.hasNext(); ) {
                out.add(it.next());
            }
        }
        return out;
    }

    @Test
    void fanOutWithAFilterPolicyAndTheEnvelopeInSnsKeyOrder() throws Exception {
        String topic = field(sns("Action", "CreateTopic", "Name", "orders"), "TopicArn");
        String all = queue("all", false);
        String shoes = queue("shoes", false);
        String subAll = field(sns("Action", "Subscribe", "TopicArn", topic, "Protocol", "sqs", "Endpoint", all), "SubscriptionArn");
        sns("Action", "Subscribe", "TopicArn", topic, "Protocol", "sqs", "Endpoint", shoes,
                "Attributes.entry.1.key", "FilterPolicy", "Attributes.entry.1.value", "{\"kind\":[\"shoes\"]}");
        String id = field(sns("Action", "Publish", "TopicArn", topic, "Message", "hello", "Subject", "s",
                "MessageAttributes.entry.1.Name", "kind", "MessageAttributes.entry.1.Value.DataType", "String",
                "MessageAttributes.entry.1.Value.StringValue", "hats"), "MessageId");
        sns("Action", "Publish", "TopicArn", topic, "Message", "second",
                "MessageAttributes.entry.1.Name", "kind", "MessageAttributes.entry.1.Value.DataType", "String",
                "MessageAttributes.entry.1.Value.StringValue", "shoes");
        List<JsonNode> received = receive("all");
        assertThat(received).hasSize(2);
        JsonNode first = received.stream().filter(m -> m.path("Body").asText().contains("hello")).findFirst().orElseThrow();
        JsonNode envelope = JSON.readTree(first.path("Body").asText());
        List<String> keys = new ArrayList<>();
        envelope.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp",
                "SignatureVersion", "Signature", "SigningCertURL", "UnsubscribeURL", "MessageAttributes");
        assertThat(envelope.path("MessageId").asText()).isEqualTo(id);
        assertThat(envelope.path("Timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(envelope.path("UnsubscribeURL").asText())
                .isEqualTo("http://127.0.0.1:9324/?Action=Unsubscribe&SubscriptionArn=" + subAll);
        assertThat(envelope.path("MessageAttributes").toString()).isEqualTo("{\"kind\":{\"Type\":\"String\",\"Value\":\"hats\"}}");
        assertThat(first.has("MessageAttributes")).as("SNS attributes stay inside the envelope").isFalse();
        List<JsonNode> filtered = receive("shoes");
        assertThat(filtered).hasSize(1);
        assertThat(JSON.readTree(filtered.get(0).path("Body").asText()).path("Message").asText()).isEqualTo("second");
        assertThat(publisher.counters()).containsEntry("NumberOfNotificationsFilteredOut", 1L)
                .containsEntry("NumberOfNotificationsDelivered", 3L).containsEntry("NumberOfMessagesPublished", 2L);
    }

    @Test
    void rawDeliveryPassesTheBodyAndTheAttributes() {
        String topic = field(sns("Action", "CreateTopic", "Name", "raw"), "TopicArn");
        sns("Action", "Subscribe", "TopicArn", topic, "Protocol", "sqs", "Endpoint", queue("raw", false),
                "Attributes.entry.1.key", "RawMessageDelivery", "Attributes.entry.1.value", "true");
        sns("Action", "Publish", "TopicArn", topic, "Message", "{\"plain\":1}",
                "MessageAttributes.entry.1.Name", "n", "MessageAttributes.entry.1.Value.DataType", "Number",
                "MessageAttributes.entry.1.Value.StringValue", "7");
        List<JsonNode> received = receive("raw");
        assertThat(received).hasSize(1);
        assertThat(received.get(0).path("Body").asText()).isEqualTo("{\"plain\":1}");
        assertThat(received.get(0).path("MessageAttributes").path("n").path("StringValue").asText()).isEqualTo("7");
        assertThat(received.get(0).path("MessageAttributes").path("n").path("DataType").asText()).isEqualTo("Number");
    }

    @Test
    void fifoTopicToFifoQueueKeepsOrderGroupAndContentDeduplication() throws Exception {
        String topic = field(sns("Action", "CreateTopic", "Name", "o.fifo", "Attributes.entry.1.key", "FifoTopic",
                "Attributes.entry.1.value", "true", "Attributes.entry.2.key", "ContentBasedDeduplication",
                "Attributes.entry.2.value", "true"), "TopicArn");
        sns("Action", "Subscribe", "TopicArn", topic, "Protocol", "sqs", "Endpoint", queue("o.fifo", true));
        List<String> sequence = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sequence.add(field(sns("Action", "Publish", "TopicArn", topic, "Message", "m" + i, "MessageGroupId", "g"),
                    "SequenceNumber"));
        }
        sns("Action", "Publish", "TopicArn", topic, "Message", "m0", "MessageGroupId", "g"); // a duplicate by content
        assertThat(sequence).isSorted().doesNotHaveDuplicates();
        ObjectNode in = JSON.createObjectNode().put("QueueUrl", "http://127.0.0.1:9324/" + ACCOUNT + "/o.fifo")
                .put("MaxNumberOfMessages", 10);
        in.putArray("MessageSystemAttributeNames").add("All");
        List<String> bodies = new ArrayList<>();
        for (JsonNode m : sqs("ReceiveMessage", in).path("Messages")) {
            JsonNode envelope = JSON.readTree(m.path("Body").asText());
            assertThat(envelope.has("Signature")).isFalse();
            assertThat(envelope.path("SequenceNumber").asText()).hasSize(20);
            assertThat(m.path("Attributes").path("MessageGroupId").asText()).isEqualTo("g");
            assertThat(m.path("Attributes").path("MessageDeduplicationId").asText())
                    .isEqualTo(SnsPublisher.contentDeduplicationId(envelope.path("Message").asText()));
            bodies.add(envelope.path("Message").asText());
        }
        assertThat(bodies).containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    @Test
    void publishValidationUsesSnsTexts() {
        String topic = field(sns("Action", "CreateTopic", "Name", "v.fifo", "Attributes.entry.1.key", "FifoTopic",
                "Attributes.entry.1.value", "true"), "TopicArn");
        assertThat(error("Action", "Publish", "TopicArn", topic, "Message", "x"))
                .contains("Invalid parameter: The MessageGroupId parameter is required for FIFO topics");
        assertThat(error("Action", "Publish", "TopicArn", topic, "Message", "x", "MessageGroupId", "g"))
                .contains("Invalid parameter: The topic should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
        assertThat(error("Action", "Publish", "TopicArn", topic, "Message", "")).contains("Invalid parameter: Empty message");
        String standard = field(sns("Action", "CreateTopic", "Name", "std"), "TopicArn");
        sns("Action", "SetTopicAttributes", "TopicArn", standard, "AttributeName", "MaximumMessageSize", "AttributeValue", "1024");
        assertThat(error("Action", "Publish", "TopicArn", standard, "Message", "x".repeat(1025)))
                .contains("Invalid parameter: Message too long");
        assertThat(error("Action", "Publish", "TopicArn", standard, "Message", "{}", "MessageStructure", "json"))
                .contains("Invalid parameter: Message Structure - No default entry in JSON message body");
        String batch = sns("Action", "PublishBatch", "TopicArn", standard,
                "PublishBatchRequestEntries.member.1.Id", "a", "PublishBatchRequestEntries.member.1.Message", "ok",
                "PublishBatchRequestEntries.member.2.Id", "b", "PublishBatchRequestEntries.member.2.Message", "");
        assertThat(batch).contains("<Successful><member><Id>a</Id><MessageId>")
                .contains("<Failed><member><Id>b</Id><Code>InvalidParameter</Code><Message>Invalid parameter: Empty message</Message><SenderFault>true</SenderFault></member></Failed>");
    }

    private String error(String... pairs) {
        StringBuilder body = new StringBuilder("Version=2010-03-31");
        for (int i = 0; i < pairs.length; i += 2) {
            body.append('&').append(pairs[i]).append('=').append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        HttpResponseData r = api.handle(new HttpRequestData("POST", "/", "", Map.of(),
                body.toString().getBytes(StandardCharsets.UTF_8)), ACCOUNT).join();
        assertThat(r.status()).isEqualTo(400);
        return new String(r.body(), StandardCharsets.UTF_8);
    }
}
