package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.hikyaku.protocol.Http.CODEC;
import static io.hikyaku.protocol.Http.json;
import static io.hikyaku.protocol.Http.object;
import static io.hikyaku.protocol.Http.request;
import static io.hikyaku.protocol.Http.tree;
import static io.hikyaku.protocol.Http.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** AWS JSON 1.0: detection, body parsing, responses and errors. */
class JsonProtocolTest {

    @Test
    void decodesTargetAndBody() {
        ApiRequest request = CODEC.decode(json("SendMessage", "{\"QueueUrl\":\"u\",\"MessageBody\":\"b\",\"DelaySeconds\":5}"));
        assertEquals("SendMessage", request.action());
        assertEquals(WireProtocol.JSON, request.protocol());
        assertFalse(request.acceptJson());
        assertEquals(tree("{\"QueueUrl\":\"u\",\"MessageBody\":\"b\",\"DelaySeconds\":5}"), request.input());
        assertTrue(request.input().get("DelaySeconds").isNumber(), "numbers stay numbers in JSON");
    }

    @Test
    void worksOnAQueueUrlPathAndWithOtherContentTypes() {
        // Behaviour 74: the PHP SDK posts JSON to the queue URL.
        ApiRequest onQueuePath = CODEC.decode(request("POST", "/000000000000/q", "", utf8("{\"QueueUrl\":\"u\"}"),
                "X-Amz-Target", "AmazonSQS.PurgeQueue", "Content-Type", "application/x-amz-json-1.0"));
        assertEquals("PurgeQueue", onQueuePath.action());
        assertEquals("/000000000000/q", onQueuePath.path());
        ApiRequest plainJson = CODEC.decode(request("POST", "/", "", utf8("{}"),
                "X-Amz-Target", "AmazonSQS.ListQueues", "Content-Type", "application/json"));
        assertEquals("ListQueues", plainJson.action());
        ApiRequest noType = CODEC.decode(request("POST", "/", "", utf8("{}"), "X-Amz-Target", "AmazonSQS.ListQueues"));
        assertEquals("ListQueues", noType.action());
        // ... and even a query-style queue URL path with CreateQueue is fine over JSON.
        assertEquals("CreateQueue", CODEC.decode(request("POST", "/000000000000/q", "", utf8("{\"QueueName\":\"q\"}"),
                "X-Amz-Target", "AmazonSQS.CreateQueue")).action());
    }

    @Test
    void anEmptyBodyIsTheEmptyInput() {
        assertEquals(tree("{}"), CODEC.decode(json("ListQueues", "")).input());
        assertEquals(tree("{}"), CODEC.decode(json("ListQueues", " \n ")).input());
    }

    @Test
    void encodesResults() {
        ApiRequest request = CODEC.decode(json("GetQueueUrl", "{\"QueueName\":\"q\"}"));
        HttpResponseData response = CODEC.encodeResult(request, object("{\"QueueUrl\":\"http://h/0/q\"}"), "rid");
        assertEquals(200, response.status());
        assertEquals("application/x-amz-json-1.0", response.headers().get("Content-Type"));
        assertEquals("rid", response.headers().get("x-amzn-RequestId"));
        assertEquals(tree("{\"QueueUrl\":\"http://h/0/q\"}"), tree(response));
        assertEquals("{}", Http.text(CODEC.encodeResult(request, object("{}"), "rid")));
        assertEquals("{}", Http.text(CODEC.encodeResult(request, null, "rid")));
    }

    @Test
    void encodesErrorsWithShapeTypeAndQueryCodeHeader() {
        ApiRequest request = CODEC.decode(json("GetQueueUrl", "{\"QueueName\":\"nope\"}"));
        HttpResponseData response = CODEC.encodeError(null, request,
                new ApiException("QueueDoesNotExist", "The specified queue does not exist."), "rid");
        assertEquals(400, response.status());
        assertEquals("application/x-amz-json-1.0", response.headers().get("Content-Type"));
        assertEquals("AWS.SimpleQueueService.NonExistentQueue;Sender", response.headers().get("x-amzn-query-error"));
        assertEquals("rid", response.headers().get("x-amzn-RequestId"));
        assertEquals(tree("{\"__type\":\"com.amazonaws.sqs#QueueDoesNotExist\",\"message\":\"The specified queue does not exist.\"}"),
                tree(response));
    }

    @Test
    void encodesStatusAndFaultFromTheCatalogue() {
        ApiRequest request = CODEC.decode(json("PurgeQueue", "{}"));
        HttpResponseData purge = CODEC.encodeError(null, request, new ApiException("PurgeQueueInProgress", "m"), "r");
        assertEquals(403, purge.status());
        assertEquals("AWS.SimpleQueueService.PurgeQueueInProgress;Sender", purge.headers().get("x-amzn-query-error"));
        HttpResponseData size = CODEC.encodeError(null, request, new ApiException("InvalidParameterValue", "m"), "r");
        assertEquals("com.amazonaws.sqs#InvalidParameterValueException", tree(size).get("__type").asText());
        assertEquals("InvalidParameterValue;Sender", size.headers().get("x-amzn-query-error"));
        HttpResponseData missing = CODEC.encodeError(null, request, new ApiException("MissingRequiredParameterException", "m"), "r");
        assertEquals("com.amazonaws.sqs#MissingRequiredParameterException", tree(missing).get("__type").asText());
        assertEquals("MissingParameter;Sender", missing.headers().get("x-amzn-query-error"));
        HttpResponseData internal = CODEC.encodeError(null, request, new ApiException("InternalError", "boom"), "r");
        assertEquals(500, internal.status());
        assertEquals("InternalError;Receiver", internal.headers().get("x-amzn-query-error"));
    }

    @Test
    void unknownActionsAreUnknownOperations() {
        for (String target : new String[] {"AmazonSQS.FooBar", "DynamoDB_20120810.ListTables", "", "AmazonSQS."}) {
            HttpResponseData response = Http.decodeError(request("POST", "/", "", utf8("{}"), "X-Amz-Target", target));
            assertEquals(400, response.status(), target);
            assertEquals("com.amazon.coral.service#UnknownOperationException", tree(response).get("__type").asText());
            assertNull(response.headers().get("x-amzn-query-error"));
            assertEquals("application/x-amz-json-1.0", response.headers().get("Content-Type"));
        }
    }

    @Test
    void hikyakuActionsHaveTheirOwnTargetPrefix() {
        ApiRequest peek = CODEC.decode(request("POST", "/", "", utf8("{\"QueueUrl\":\"u\"}"),
                "X-Amz-Target", "Hikyaku.PeekMessages"));
        assertEquals("Hikyaku.PeekMessages", peek.action());
        assertEquals(WireProtocol.JSON, peek.protocol());
        for (String target : new String[] {"AmazonSQS.PeekMessages", "AmazonSQS.Hikyaku.PeekMessages", "Hikyaku.Foo", "Hikyaku."}) {
            HttpResponseData response = Http.decodeError(request("POST", "/", "", utf8("{}"), "X-Amz-Target", target));
            assertEquals("com.amazon.coral.service#UnknownOperationException", tree(response).get("__type").asText(), target);
        }
    }

    @Test
    void anAwsJsonContentTypeWithoutTargetIsAnUnknownJsonOperation() {
        HttpResponseData response = Http.decodeError(request("POST", "/", "", utf8("{}"),
                "Content-Type", "application/x-amz-json-1.0"));
        assertEquals(400, response.status());
        assertEquals("application/x-amz-json-1.0", response.headers().get("Content-Type"));
        assertEquals("com.amazon.coral.service#UnknownOperationException", tree(response).get("__type").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "{\"QueueUrl\":", "{\"QueueUrl\":\"u\"", "[1,2]", "\"text\"", "42", "null", "true",
            "{\"a\":1}garbage", "{\"a\":1}{}", "{'a':1}", "{\"a\":NaN}", "{\"a\":01}", "{a:1}", "\u0000"})
    void malformedOrNonObjectBodiesAreSerializationExceptions(String body) {
        HttpResponseData response = Http.decodeError(json("SendMessage", body));
        assertSerializationException(response);
    }

    @Test
    void invalidUtf8IsASerializationException() {
        byte[] body = {'{', '"', 'M', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertSerializationException(Http.decodeError(request("POST", "/", "", body, "X-Amz-Target", "AmazonSQS.SendMessage")));
        byte[] overlong = {'{', '"', 'M', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'};
        assertSerializationException(Http.decodeError(request("POST", "/", "", overlong, "X-Amz-Target", "AmazonSQS.SendMessage")));
        byte[] truncated = {'{', '"', 'M', '"', ':', '"', (byte) 0xE4, (byte) 0xB8};
        assertSerializationException(Http.decodeError(request("POST", "/", "", truncated, "X-Amz-Target", "AmazonSQS.SendMessage")));
    }

    @Test
    void deepNestingIsRefusedButModestNestingIsFine() {
        String deep = "{\"a\":".repeat(100) + "1" + "}".repeat(100);
        assertSerializationException(Http.decodeError(json("SendMessage", deep)));
        String deepArray = "{\"a\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}";
        assertSerializationException(Http.decodeError(json("SendMessage", deepArray)));
        String modest = "{\"a\":".repeat(10) + "1" + "}".repeat(10);
        assertEquals(1, CODEC.decode(json("SendMessage", modest)).input().at("/a/a/a/a/a/a/a/a/a/a").asInt());
    }

    @Test
    void hugeNumbersNeverFailTheServer() {
        ApiRequest big = CODEC.decode(json("ReceiveMessage", "{\"MaxNumberOfMessages\":123456789012345678901234567890,\"W\":1e99999}"));
        assertTrue(big.input().get("MaxNumberOfMessages").isBigInteger());
        assertSerializationException(Http.decodeError(json("ReceiveMessage", "{\"MaxNumberOfMessages\":" + "9".repeat(5000) + "}")));
    }

    @Test
    void duplicateKeysKeepTheLastValue() {
        JsonNode input = CODEC.decode(json("SendMessage", "{\"MessageBody\":\"a\",\"MessageBody\":\"b\"}")).input();
        assertEquals("b", input.get("MessageBody").asText());
    }

    @Test
    void errorsEchoingLoneSurrogatesStillEncode() {
        ApiRequest request = CODEC.decode(json("DeleteMessage", "{\"ReceiptHandle\":\"\\ud800\"}"));
        String handle = request.input().get("ReceiptHandle").asText();
        HttpResponseData response = CODEC.encodeError(null, request, new ApiException("ReceiptHandleIsInvalid",
                "The input receipt handle \"" + handle + "\" is not a valid receipt handle."), "r");
        assertEquals(400, response.status());
        assertTrue(tree(response).get("message").asText().startsWith("The input receipt handle"));
    }

    private static void assertSerializationException(HttpResponseData response) {
        assertEquals(400, response.status());
        assertEquals("application/x-amz-json-1.0", response.headers().get("Content-Type"));
        JsonNode body = tree(response);
        assertEquals("com.amazon.coral.service#SerializationException", body.get("__type").asText());
        assertTrue(body.hasNonNull("message"));
    }

    @Test
    void writesUtf8StraightAndALoneSurrogateAsItsEscape() {
        com.fasterxml.jackson.databind.node.ObjectNode node = JsonCodec.MAPPER.createObjectNode();
        node.put("Body", "h\u00e9llo \u6f22 \ud83d\ude00");
        assertEquals("{\"Body\":\"h\u00e9llo \u6f22 \ud83d\ude00\"}",
                new String(JsonCodec.write(node), java.nio.charset.StandardCharsets.UTF_8));
        node.put("Body", "bad \ud800 echo");
        assertEquals("{\"Body\":\"bad \\uD800 echo\"}",
                new String(JsonCodec.write(node), java.nio.charset.StandardCharsets.UTF_8));
    }
}
