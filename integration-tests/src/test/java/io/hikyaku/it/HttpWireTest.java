package io.hikyaku.it;

import static io.hikyaku.it.support.RawHttp.JSON_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.it.support.Xml;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** HTTP-level shapes real clients produce: chunked bodies, Expect: 100-continue, charsets, keep-alive, pipelining. */
class HttpWireTest extends SqsTestBase {

    private String sendBody(String url, String body) {
        return "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + body + "\"}";
    }

    @Test
    void chunkedRequestBody() {
        String url = createQueue(unique("hw-chunked"));
        byte[] body = sendBody(url, "chunked").getBytes(StandardCharsets.UTF_8);
        var r = http.send(http.request("/").header("Content-Type", JSON_TYPE).header("X-Amz-Target", "AmazonSQS.SendMessage")
                // an InputStream publisher of unknown length is sent with Transfer-Encoding: chunked
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));
        assertThat(r.status()).isEqualTo(200);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("chunked");
    }

    @Test
    void expectContinue() {
        String url = createQueue(unique("hw-continue"));
        var r = http.send(http.request("/").expectContinue(true).header("Content-Type", JSON_TYPE)
                .header("X-Amz-Target", "AmazonSQS.SendMessage")
                .POST(HttpRequest.BodyPublishers.ofString(sendBody(url, "continued"))));
        assertThat(r.status()).isEqualTo(200);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("continued");
    }

    @Test
    void queryContentTypeWithCharset() {
        String name = unique("hw-charset");
        var r = http.send(http.request("/").header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(RawHttp.form("Action", "CreateQueue", "Version", "2012-11-05",
                        "QueueName", name))));
        assertThat(r.status()).isEqualTo(200);
        assertThat(Xml.parse(r.body()).first("QueueUrl")).isEqualTo(queueUrl(name));
    }

    @Test
    void manyRequestsOnKeptAliveConnections() {
        String url = createQueue(unique("hw-alive"));
        for (int i = 0; i < 50; i++) {
            var r = http.json("SendMessage", sendBody(url, "m" + i));
            assertThat(r.status()).isEqualTo(200);
        }
        assertThat(attribute(url, software.amazon.awssdk.services.sqs.model.QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                .isEqualTo("50");
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        String name = unique("hw-pipe");
        String url = createQueue(name);
        URI uri = URI.create(endpoint);
        String host = uri.getHost() + ":" + uri.getPort();
        StringBuilder wire = new StringBuilder();
        for (String body : new String[] {sendBody(url, "first"), sendBody(url, "second")}) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            wire.append("POST / HTTP/1.1\r\nHost: ").append(host).append("\r\nContent-Type: ").append(JSON_TYPE)
                    .append("\r\nX-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: ").append(bytes.length)
                    .append("\r\n\r\n").append(body);
        }
        wire.append("POST / HTTP/1.1\r\nHost: ").append(host).append("\r\nContent-Type: ").append(JSON_TYPE)
                .append("\r\nX-Amz-Target: AmazonSQS.GetQueueUrl\r\nConnection: close\r\nContent-Length: ");
        String last = "{\"QueueName\":\"" + name + "\"}";
        wire.append(last.getBytes(StandardCharsets.UTF_8).length).append("\r\n\r\n").append(last);
        String responses;
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(wire.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            responses = readAll(socket.getInputStream());
        }
        assertThat(responses.split("HTTP/1.1 200", -1)).as("three 200 responses: %s", responses).hasSize(4);
        // the last answer is the GetQueueUrl one
        assertThat(responses.substring(responses.lastIndexOf("HTTP/1.1 200"))).contains("\"QueueUrl\"");
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages()).extracting(m -> m.body())
                .containsExactlyInAnyOrder("first", "second");
    }

    @Test
    void http10RequestIsAnsweredAndClosed() throws Exception {
        URI uri = URI.create(endpoint);
        String body = "{}";
        String wire = "POST / HTTP/1.0\r\nContent-Type: " + JSON_TYPE + "\r\nX-Amz-Target: AmazonSQS.ListQueues\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body;
        String response;
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(wire.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            response = readAll(socket.getInputStream());
        }
        assertThat(response).startsWith("HTTP/1.");
        assertThat(response.substring(9, 12)).isEqualTo("200");
        String json = response.substring(response.indexOf("\r\n\r\n") + 4);
        assertThat(Json.parse(json).isObject()).isTrue();
    }

    /** Reads until the server closes the connection (bounded by the socket timeout and a size cap). */
    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int n;
        while (buf.size() < 1_000_000 && (n = in.read(chunk)) >= 0) {
            buf.write(chunk, 0, n);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
