package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** A tiny AWS JSON 1.0 client over {@link RawHttp}: inputs built as JSON trees, no escaping by hand. */
final class JsonSqs implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    private final RawHttp http;
    private final String[] headers;

    JsonSqs(int port) throws IOException {
        http = new RawHttp(port);
        headers = new String[0];
    }

    /** Calls as {@code accountId} (a signature whose access key id is that account, as auth none reads it). */
    JsonSqs(int port, String accountId) throws IOException {
        http = new RawHttp(port);
        headers = new String[] {"Authorization: AWS4-HMAC-SHA256 Credential=" + accountId
                + "/20260102/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=00"};
    }

    static ObjectNode input() {
        return JSON.createObjectNode();
    }

    /** Calls {@code action}; fails the test unless the answer is 200. */
    JsonNode call(String action, ObjectNode input) throws IOException {
        RawHttp.Response r = raw(action, input);
        assertThat(r.status()).as(action + " " + input + " -> " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    RawHttp.Response raw(String action, ObjectNode input) throws IOException {
        http.send(RawHttp.jsonCall(action, input.toString(), headers));
        return http.read();
    }

    /** CreateQueue with {@code attributes}; the queue URL. */
    String create(String name, ObjectNode attributes) throws IOException {
        ObjectNode in = input().put("QueueName", name);
        in.set("Attributes", attributes);
        return call("CreateQueue", in).path("QueueUrl").asText();
    }

    String queueUrl(String name) throws IOException {
        return call("GetQueueUrl", input().put("QueueName", name)).path("QueueUrl").asText();
    }

    JsonNode send(String url, String body) throws IOException {
        return call("SendMessage", input().put("QueueUrl", url).put("MessageBody", body));
    }

    /** Receives up to 10 with a long visibility timeout, so nothing comes back during a test. */
    JsonNode receive(String url, int max) throws IOException {
        return call("ReceiveMessage", input().put("QueueUrl", url).put("MaxNumberOfMessages", max)
                .put("VisibilityTimeout", 600).put("WaitTimeSeconds", 0)).path("Messages");
    }

    JsonNode attributes(String url) throws IOException {
        ObjectNode in = input().put("QueueUrl", url);
        in.putArray("AttributeNames").add("All");
        return call("GetQueueAttributes", in).path("Attributes");
    }

    int attribute(String url, String name) throws IOException {
        return Integer.parseInt(attributes(url).path(name).asText());
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
