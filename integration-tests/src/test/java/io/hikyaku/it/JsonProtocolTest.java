package io.hikyaku.it;

import static io.hikyaku.it.support.RawHttp.JSON_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.SqsTestBase;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** AWS JSON 1.0 wire details seen raw: headers, error bodies, POSTs to queue paths (behaviours 1, 74). */
class JsonProtocolTest extends SqsTestBase {

    @Test
    void successHasJsonContentTypeAndRequestId() {
        String name = unique("jp");
        var r = http.json("CreateQueue", "{\"QueueName\":\"" + name + "\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("content-type")).startsWith(JSON_TYPE);
        assertThat(r.header("x-amzn-RequestId")).isNotBlank();
        assertThat(Json.parse(r.body()).path("QueueUrl").asText()).isEqualTo(queueUrl(name));
    }

    @Test
    void b1_errorBodyAndHeaders() {
        var r = http.json("GetQueueAttributes", "{\"QueueUrl\":\"" + queueUrl("jp-missing") + "\",\"AttributeNames\":[\"All\"]}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.header("content-type")).startsWith(JSON_TYPE);
        assertThat(r.header("x-amzn-query-error")).isEqualTo("AWS.SimpleQueueService.NonExistentQueue;Sender");
        JsonNode body = Json.parse(r.body());
        assertThat(body.path("__type").asText()).isEqualTo("com.amazonaws.sqs#QueueDoesNotExist");
        assertThat(body.path("message").asText()).isEqualTo("The specified queue does not exist.");
    }

    @Test
    void b74_jsonPostedToTheQueueUrlPath() {
        String name = unique("jp-path");
        String url = createQueue(name);
        var sent = http.post("/" + ACCOUNT + "/" + name,
                ("{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"php style\"}").getBytes(StandardCharsets.UTF_8),
                "Content-Type", JSON_TYPE, "X-Amz-Target", "AmazonSQS.SendMessage");
        assertThat(sent.status()).isEqualTo(200);
        assertThat(sent.header("content-type")).startsWith(JSON_TYPE);
        assertThat(Json.parse(sent.body()).path("MD5OfMessageBody").asText()).isEqualTo(SendReceiveTest.md5Hex("php style"));
        var got = http.post("/" + ACCOUNT + "/" + name, ("{\"QueueUrl\":\"" + url + "\"}").getBytes(StandardCharsets.UTF_8),
                "Content-Type", JSON_TYPE, "X-Amz-Target", "AmazonSQS.ReceiveMessage");
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.header("content-type")).startsWith(JSON_TYPE);
        assertThat(Json.parse(got.body()).path("Messages").get(0).path("Body").asText()).isEqualTo("php style");
    }

    @Test
    void batchResultShapeOnTheWire() {
        String url = createQueue(unique("jp-batch"));
        var r = http.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[{\"Id\":\"a\",\"MessageBody\":\"test\"},"
                + "{\"Id\":\"b\",\"MessageBody\":\"\\u0001\"}]}");
        assertThat(r.status()).isEqualTo(200);
        JsonNode body = Json.parse(r.body());
        assertThat(body.path("Successful").get(0).path("Id").asText()).isEqualTo("a");
        assertThat(body.path("Successful").get(0).path("MD5OfMessageBody").asText()).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        JsonNode failed = body.path("Failed").get(0);
        assertThat(failed.path("Id").asText()).isEqualTo("b");
        assertThat(failed.path("Code").asText()).isEqualTo("InvalidMessageContents");
        assertThat(failed.path("SenderFault").asBoolean()).isTrue();
        assertThat(failed.path("Message").asText()).isNotBlank();
    }

    @Test
    void numbersAndTimestampsInTheJsonShape() {
        String url = createQueue(unique("jp-shape"));
        http.json("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}");
        var r = http.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageSystemAttributeNames\":[\"All\"]}");
        JsonNode m = Json.parse(r.body()).path("Messages").get(0);
        // system attribute values are strings in SQS's JSON
        assertThat(m.path("Attributes").path("SentTimestamp").isTextual()).isTrue();
        assertThat(m.path("Attributes").path("SentTimestamp").asText()).isEqualTo(String.valueOf(clock.millis()));
        assertThat(m.path("ReceiptHandle").asText()).isNotBlank();
        assertThat(m.path("MD5OfBody").asText()).isEqualTo(SendReceiveTest.md5Hex("x"));
    }

    @Test
    void queueUrlsFollowTheHostTheClientUsed() {
        String port = endpoint.substring(endpoint.lastIndexOf(':') + 1);
        var viaLocalhost = new io.hikyaku.it.support.RawHttp("http://localhost:" + port);
        String name = unique("jp-host");
        var r = viaLocalhost.json("CreateQueue", "{\"QueueName\":\"" + name + "\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(Json.parse(r.body()).path("QueueUrl").asText()).isEqualTo("http://localhost:" + port + "/" + ACCOUNT + "/" + name);
        // the same queue, seen through the IP address, has that URL
        assertThat(sqs.getQueueUrl(b -> b.queueName(name)).queueUrl()).isEqualTo(queueUrl(name));
    }

    private static java.util.List<String> keys(JsonNode node) {
        java.util.List<String> out = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private JsonNode ok(String action, String body) {
        var r = http.json(action, body);
        assertThat(r.status()).as("%s: %s", action, r.body()).isEqualTo(200);
        return Json.parse(r.body());
    }

    @Test
    void exactResponseShapesOfTheMessageActions() {
        String url = createQueue(unique("jp-keys"));
        assertThat(keys(ok("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"a\"}")))
                .containsExactlyInAnyOrder("MD5OfMessageBody", "MessageId");
        assertThat(keys(ok("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"b\",\"MessageAttributes\":"
                + "{\"Foo\":{\"DataType\":\"String\",\"StringValue\":\"Bar\"}}}")))
                .containsExactlyInAnyOrder("MD5OfMessageBody", "MD5OfMessageAttributes", "MessageId");
        JsonNode plain = ok("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":1}").path("Messages").get(0);
        assertThat(keys(plain)).containsExactlyInAnyOrder("MessageId", "ReceiptHandle", "MD5OfBody", "Body");
        JsonNode full = ok("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageAttributeNames\":[\"All\"],"
                + "\"MessageSystemAttributeNames\":[\"SenderId\"]}").path("Messages").get(0);
        assertThat(keys(full)).containsExactlyInAnyOrder("MessageId", "ReceiptHandle", "MD5OfBody", "Body", "Attributes",
                "MD5OfMessageAttributes", "MessageAttributes");
        assertThat(keys(full.path("MessageAttributes").path("Foo"))).containsExactlyInAnyOrder("DataType", "StringValue");
        String handle = full.path("ReceiptHandle").asText();
        assertThat(keys(ok("ChangeMessageVisibility", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle
                + "\",\"VisibilityTimeout\":5}"))).isEmpty();
        assertThat(keys(ok("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}"))).isEmpty();
        JsonNode batch = ok("DeleteMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[{\"Id\":\"x\",\"ReceiptHandle\":\""
                + handle + "\"}]}");
        assertThat(keys(batch)).contains("Successful");
        assertThat(keys(batch.path("Successful").get(0))).containsExactly("Id");
    }

    @Test
    void exactResponseShapesOfTheQueueActions() {
        String name = unique("jp-qkeys");
        assertThat(keys(ok("CreateQueue", "{\"QueueName\":\"" + name + "\"}"))).containsExactly("QueueUrl");
        String url = queueUrl(name);
        assertThat(keys(ok("GetQueueUrl", "{\"QueueName\":\"" + name + "\"}"))).containsExactly("QueueUrl");
        assertThat(keys(ok("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"DelaySeconds\"]}")))
                .containsExactly("Attributes");
        assertThat(keys(ok("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":{\"DelaySeconds\":\"1\"}}")))
                .isEmpty();
        assertThat(keys(ok("ListQueues", "{\"QueueNamePrefix\":\"" + name + "\"}"))).containsExactly("QueueUrls");
        assertThat(keys(ok("ListQueues", "{\"QueueNamePrefix\":\"jp-nothing-matches\"}"))).isEmpty();
        assertThat(keys(ok("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"k\":\"v\"}}"))).isEmpty();
        assertThat(keys(ok("ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}"))).containsExactly("Tags");
        assertThat(keys(ok("UntagQueue", "{\"QueueUrl\":\"" + url + "\",\"TagKeys\":[\"k\"]}"))).isEmpty();
        assertThat(keys(ok("PurgeQueue", "{\"QueueUrl\":\"" + url + "\"}"))).isEmpty();
        assertThat(keys(ok("ListDeadLetterSourceQueues", "{\"QueueUrl\":\"" + url + "\"}"))).containsExactly("queueUrls");
        assertThat(keys(ok("DeleteQueue", "{\"QueueUrl\":\"" + url + "\"}"))).isEmpty();
    }
}
