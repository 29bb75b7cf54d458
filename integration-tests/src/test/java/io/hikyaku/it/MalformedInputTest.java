package io.hikyaku.it;

import static io.hikyaku.it.support.RawHttp.FORM_TYPE;
import static io.hikyaku.it.support.RawHttp.JSON_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.it.support.Xml;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Requests no SDK would send. Each must get a clean 4xx answer, and afterwards the server must still serve and the
 * messages stored before must be intact.
 */
class MalformedInputTest extends SqsTestBase {
    private String keeperUrl;

    @BeforeAll
    void storeMessages() {
        keeperUrl = createQueue(unique("keeper"));
        for (String body : List.of("kept-1", "kept-2", "kept-3")) {
            sqs.sendMessage(b -> b.queueUrl(keeperUrl).messageBody(body));
        }
    }

    @AfterEach
    void serverStillServesAndMessagesAreIntact() {
        assertThat(sqs.listQueues().queueUrls()).contains(keeperUrl);
        assertThat(attribute(keeperUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("3");
        List<Message> peek = sqs.receiveMessage(b -> b.queueUrl(keeperUrl).maxNumberOfMessages(10).visibilityTimeout(0)).messages();
        assertThat(peek).extracting(Message::body).isSubsetOf("kept-1", "kept-2", "kept-3").isNotEmpty();
    }

    private RawHttp.Response postJson(byte[] body, String target) {
        return http.post("/", body, "Content-Type", JSON_TYPE, "X-Amz-Target", target);
    }

    private static JsonNode jsonError(RawHttp.Response r, int status, String typeSuffix) {
        assertThat(r.status()).as("status: %s", r.body()).isEqualTo(status);
        assertThat(r.header("content-type")).startsWith(JSON_TYPE);
        assertThat(r.header("x-amzn-RequestId")).isNotBlank();
        JsonNode body = Json.parse(r.body());
        assertThat(body.path("__type").asText()).endsWith(typeSuffix);
        return body;
    }

    @Test
    void truncatedJson() {
        jsonError(postJson("{\"QueueName\":\"abc".getBytes(StandardCharsets.UTF_8), "AmazonSQS.CreateQueue"), 400,
                "SerializationException");
        assertThat(sqs.listQueues(b -> b.queueNamePrefix("abc")).queueUrls()).isEmpty();
    }

    @Test
    void jsonThatIsNotAnObject() {
        for (String body : new String[] {"[1,2]", "\"text\"", "42", "null", "true"}) {
            jsonError(postJson(body.getBytes(StandardCharsets.UTF_8), "AmazonSQS.ListQueues"), 400, "SerializationException");
        }
    }

    @Test
    void trailingGarbageAfterTheObject() {
        jsonError(postJson("{\"QueueUrl\":\"x\"} {".getBytes(StandardCharsets.UTF_8), "AmazonSQS.GetQueueAttributes"), 400,
                "SerializationException");
    }

    @Test
    void invalidUtf8InJson() {
        byte[] prefix = ("{\"QueueUrl\":\"" + keeperUrl + "\",\"MessageBody\":\"").getBytes(StandardCharsets.UTF_8);
        byte[] body = Arrays.copyOf(prefix, prefix.length + 4);
        body[prefix.length] = (byte) 0xFF;
        body[prefix.length + 1] = (byte) 0xFE;
        body[prefix.length + 2] = '"';
        body[prefix.length + 3] = '}';
        jsonError(postJson(body, "AmazonSQS.SendMessage"), 400, "SerializationException");
    }

    @Test
    void invalidUtf8AndBadEscapesInQueryForm() {
        var badEscape = http.post("/", "Action=SendMessage&QueueUrl=x&MessageBody=%ZZ".getBytes(StandardCharsets.UTF_8),
                "Content-Type", FORM_TYPE);
        assertThat(badEscape.status()).isEqualTo(400);
        assertThat(Xml.parse(badEscape.body()).rootName()).isEqualTo("ErrorResponse");
        var badUtf8 = http.post("/", ("Action=SendMessage&QueueUrl=" + RawHttp.enc(keeperUrl) + "&MessageBody=%FF%FE")
                .getBytes(StandardCharsets.UTF_8), "Content-Type", FORM_TYPE);
        assertThat(badUtf8.status()).isEqualTo(400);
        assertThat(Xml.parse(badUtf8.body()).rootName()).isEqualTo("ErrorResponse");
    }

    @Test
    void wrongJsonTypesForFields() {
        var r = postJson(("{\"QueueUrl\":\"" + keeperUrl + "\",\"MaxNumberOfMessages\":\"ten\"}").getBytes(StandardCharsets.UTF_8),
                "AmazonSQS.ReceiveMessage");
        assertThat(r.status()).isEqualTo(400);
        assertThat(Json.parse(r.body()).path("__type").asText()).isNotBlank();
        var r2 = postJson("{\"QueueName\":{\"nested\":true}}".getBytes(StandardCharsets.UTF_8), "AmazonSQS.GetQueueUrl");
        assertThat(r2.status()).isEqualTo(400);
    }

    @Test
    void missingRequiredParameter() {
        var r = postJson("{}".getBytes(StandardCharsets.UTF_8), "AmazonSQS.CreateQueue");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.header("x-amzn-query-error")).startsWith("MissingParameter;");
    }

    @Test
    void unknownJsonAction() {
        jsonError(postJson("{}".getBytes(StandardCharsets.UTF_8), "AmazonSQS.FooBar"), 400, "UnknownOperationException");
        jsonError(postJson("{}".getBytes(StandardCharsets.UTF_8), "SomethingElse.ListQueues"), 400, "UnknownOperationException");
    }

    @Test
    void unknownQueryAction() {
        var r = http.query("/", "Action=FooBar&Version=2012-11-05");
        assertThat(r.status()).isEqualTo(400);
        assertThat(Xml.parse(r.body()).first("Code")).isEqualTo("InvalidAction");
    }

    @Test
    void hugeBodyIsRefusedWith413() throws Exception {
        // Only the head is sent: the server must refuse a declared 5 MiB body before reading it. (Sending the
        // whole body races with the server closing the connection after its 413, so the client could see a reset.)
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + JSON_TYPE
                    + "\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: " + (5 * 1024 * 1024) + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String statusLine = new java.io.BufferedReader(new java.io.InputStreamReader(
                    socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            assertThat(statusLine).startsWith("HTTP/1.1 413");
        }
        assertThat(http.get("/health").status()).isEqualTo(200);
    }

    /** A bare GET / answers what is there (version, health, links); any query string makes it an SQS call. */
    @Test
    void getOnTheRootWithoutAction() {
        var r = http.get("/");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).contains("\"service\":\"hikyaku\"").contains("\"health\":\"/health\"");
        var query = http.get("/?Version=2012-11-05");
        assertThat(query.status()).isEqualTo(400);
        assertThat(query.body()).contains("MissingAction");
    }

    @Test
    void b73_getOnAQueueUrlWithoutAction() {
        var r = http.get("/" + ACCOUNT + "/" + keeperUrl.substring(keeperUrl.lastIndexOf('/') + 1), "Accept", "application/json");
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.body()).contains("<UnknownOperationException/>");
    }

    @Test
    void emptyBodyPost() {
        var r = http.post("/", new byte[0], "Content-Type", FORM_TYPE);
        assertThat(r.status()).isBetween(400, 404);
    }
}
