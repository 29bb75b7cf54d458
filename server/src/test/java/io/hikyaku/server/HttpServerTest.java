package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpServerTest {

    static final int MAX_BODY = 64 * 1024;
    static final String UUID_FORMAT = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    FakeService service;
    HikyakuServer server;

    @BeforeEach
    void start() {
        service = new FakeService();
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withClock(Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC))
                .withMaxBodyBytes(MAX_BODY), new FakeCodec(), service);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static JsonNode json(String body) throws IOException {
        return FakeCodec.JSON.readTree(body);
    }

    @Test
    void endpointNamesTheBoundEphemeralPort() {
        assertThat(server.port()).isPositive().isNotEqualTo(9324);
        assertThat(server.endpoint()).isEqualTo("http://127.0.0.1:" + server.port());
    }

    @Test
    void healthAnswersOkWithARequestId() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(server.endpoint() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r.body()).path("status").asText()).isEqualTo("ok");
        assertThat(r.headers().firstValue("x-amzn-RequestId")).get().asString().matches(UUID_FORMAT);
        assertThat(r.headers().firstValue("date")).contains("Fri, 02 Jan 2026 03:04:05 GMT");
        assertThat(service.calls).isEmpty();
    }

    @Test
    void callReachesTheServiceWithItsContextAndTheResultIsEncoded() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Echo", "{\"QueueName\":\"q\"}",
                    "Authorization: AWS4-HMAC-SHA256 Credential=123456789012/20260102/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=abc",
                    "X-Amzn-Trace-Id: Root=1-abc"));
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(200);
            JsonNode body = json(r.body());
            assertThat(body.path("accountId").asText()).isEqualTo("123456789012");
            assertThat(body.path("region").asText()).isEqualTo("us-east-1");
            assertThat(body.path("baseUrl").asText()).isEqualTo("http://127.0.0.1");
            assertThat(body.path("traceHeader").asText()).isEqualTo("Root=1-abc");
            assertThat(body.path("input").path("QueueName").asText()).isEqualTo("q");
            assertThat(body.path("requestId").asText()).isEqualTo(r.header("x-amzn-RequestId"));
        }
    }

    @Test
    void nonNumericAccessKeyFallsBackToTheDefaultAccount() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Echo", "{}", "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260102/us-east-1/sqs/aws4_request"));
            assertThat(json(http.read().body()).path("accountId").asText()).isEqualTo("000000000000");
        }
    }

    @Test
    void keepAliveServesManyRequestsOnOneConnectionEachWithItsOwnId() throws Exception {
        Set<String> ids = new HashSet<>();
        try (RawHttp http = new RawHttp(server.port())) {
            for (int i = 0; i < 20; i++) {
                http.send(RawHttp.jsonCall("Echo", "{\"n\":" + i + "}"));
                RawHttp.Response r = http.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(json(r.body()).path("input").path("n").asInt()).isEqualTo(i);
                assertThat(r.header("connection")).isNull();
                ids.add(r.header("x-amzn-RequestId"));
            }
        }
        assertThat(ids).hasSize(20).allMatch(id -> id.matches(UUID_FORMAT));
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstIsSlow() throws Exception {
        CompletableFuture<ObjectNode> slow = service.park("Slow");
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Slow", "{}") + RawHttp.jsonCall("Echo", "{\"n\":2}"));
            assertThat(http.silentFor(200)).isTrue();
            assertThat(service.actions()).containsExactly("Slow"); // the second waits its turn
            slow.complete(FakeCodec.JSON.createObjectNode().put("n", 1));
            assertThat(json(http.read().body()).path("n").asInt()).isEqualTo(1);
            assertThat(json(http.read().body()).path("input").path("n").asInt()).isEqualTo(2);
        }
    }

    @Test
    void aParkedCallDoesNotHoldUpOtherConnections() throws Exception {
        CompletableFuture<ObjectNode> poll = service.park("ReceiveMessage");
        try (RawHttp waiting = new RawHttp(server.port()); RawHttp other = new RawHttp(server.port())) {
            waiting.send(RawHttp.jsonCall("ReceiveMessage", "{\"WaitTimeSeconds\":20}"));
            for (int i = 0; i < 5; i++) {
                other.send(RawHttp.jsonCall("Echo", "{}"));
                assertThat(other.read().status()).isEqualTo(200);
            }
            poll.complete((ObjectNode) FakeCodec.JSON.readTree("{\"Messages\":[]}"));
            RawHttp.Response r = waiting.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"Messages\":[]}");
        }
    }

    @Test
    void aClientThatLeavesCancelsItsParkedCall() throws Exception {
        CompletableFuture<ObjectNode> poll = service.park("ReceiveMessage");
        try (RawHttp waiting = new RawHttp(server.port())) {
            waiting.send(RawHttp.jsonCall("ReceiveMessage", "{}"));
            waitUntil(() -> !service.calls.isEmpty());
        }
        waitUntil(poll::isCancelled);
        assertThat(poll.isCancelled()).isTrue();
        try (RawHttp http = new RawHttp(server.port())) { // and the server is still fine
            http.send(RawHttp.jsonCall("Echo", "{}"));
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void expectContinueGetsTheGoAheadThenTheAnswer() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            String body = "{\"n\":7}";
            http.send("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.Echo\r\nExpect: 100-continue\r\nContent-Length: "
                    + body.length() + "\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(100);
            http.send(body);
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(json(r.body()).path("input").path("n").asInt()).isEqualTo(7);
        }
    }

    @Test
    void oversizedDeclaredBodyIsRefusedBeforeItIsSent() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.Echo\r\nExpect: 100-continue\r\nContent-Length: "
                    + (MAX_BODY + 1) + "\r\n\r\n");
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.header("x-amzn-RequestId")).matches(UUID_FORMAT);
            assertThat(r.header("connection")).isEqualTo("close");
            assertThat(http.closedByServer()).isTrue();
        }
        assertThat(service.calls).isEmpty();
    }

    @Test
    void hugeDeclaredBodyIsRefusedWithoutBufferingIt() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1099511627776\r\n\r\n");
            try {
                http.send(new byte[256 * 1024]); // the start of a terabyte
            } catch (IOException closedWhileSending) {
                // the server answers 413 and closes as soon as it sees the header; the answer is still readable
            }
            assertThat(http.read().status()).isEqualTo(413);
        }
    }

    @Test
    void oversizedChunkedBodyIsRefusedAndTheConnectionClosed() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.Echo\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "a".repeat(16 * 1024);
            try {
                for (int i = 0; i < 8; i++) { // 128 KiB > 64 KiB limit
                    http.send(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
                }
            } catch (IOException closedWhileSending) {
                // the server may close before we finish; the 413 is still readable
            }
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.header("x-amzn-RequestId")).matches(UUID_FORMAT);
        }
        assertThat(service.calls).isEmpty();
    }

    @Test
    void bodyAtTheLimitIsAccepted() throws Exception {
        String padding = "x".repeat(MAX_BODY - "{\"p\":\"\"}".length());
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Echo", "{\"p\":\"" + padding + "\"}"));
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void malformedRequestLineGets400AndClose() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("THIS IS NOT HTTP\r\n\r\n");
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.header("x-amzn-RequestId")).matches(UUID_FORMAT);
            assertThat(http.closedByServer()).isTrue();
        }
        assertThat(service.calls).isEmpty();
    }

    @Test
    void badContentLengthGets400() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: twelve\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(400);
            assertThat(http.closedByServer()).isTrue();
        }
    }

    @Test
    void oversizedHeadersGet431() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(40 * 1024) + "\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(431);
            assertThat(http.closedByServer()).isTrue();
        }
    }

    @Test
    void badPercentEncodingInThePathGets400() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(400);
        }
    }

    @Test
    void pathIsDecodedAndPlusKept() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Echo", "{}").replace("POST / ", "POST /000000000000/my%2Dq+1?x=1 "));
            assertThat(json(http.read().body()).path("path").asText()).isEqualTo("/000000000000/my-q+1");
        }
    }

    @Test
    void errorsComeBackThroughTheCodecAndTheConnectionStaysUsable() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Fail", "{}"));
            RawHttp.Response failed = http.read();
            assertThat(failed.status()).isEqualTo(400);
            assertThat(json(failed.body()).path("__type").asText()).isEqualTo("QueueDoesNotExist");

            http.send(RawHttp.jsonCall("Crash", "{}"));
            RawHttp.Response crashed = http.read();
            assertThat(crashed.status()).isEqualTo(500);
            assertThat(json(crashed.body()).path("__type").asText()).isEqualTo("InternalError");

            http.send(RawHttp.jsonCall("Throw", "{}"));
            assertThat(http.read().status()).isEqualTo(500);

            http.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"); // no action: decode fails
            RawHttp.Response undecodable = http.read();
            assertThat(json(undecodable.body()).path("__type").asText()).isEqualTo("InvalidAction");
            assertThat(undecodable.header("x-amzn-RequestId")).matches(UUID_FORMAT);

            http.send(RawHttp.jsonCall("Echo", "{}"));
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void http10ClosesUnlessKeepAliveIsAsked() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /health HTTP/1.0\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(200);
            assertThat(http.closedByServer()).isTrue();
        }
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertThat(http.read().header("connection")).isEqualToIgnoringCase("keep-alive");
            http.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void closeStopsTheServiceAndTheListener() throws Exception {
        int port = server.port();
        server.close();
        assertThat(service.closed).isTrue();
        try (RawHttp http = new RawHttp(port)) {
            http.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(http.closedByServer()).isTrue();
        } catch (IOException refused) {
            // connection refused: also fine
        }
    }

    @Test
    void closeLetsAnInFlightCallFinishAndStopsKeepAlive() throws Exception {
        CompletableFuture<ObjectNode> poll = service.park("ReceiveMessage");
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("ReceiveMessage", "{}"));
            waitUntil(() -> !service.calls.isEmpty());
            Thread closer = new Thread(server::close);
            closer.start();
            waitUntil(() -> !service.closed && closer.isAlive());
            Thread.sleep(100);
            assertThat(service.closed).isFalse(); // still waiting for the call
            poll.complete((ObjectNode) FakeCodec.JSON.readTree("{\"Messages\":[]}"));
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("connection")).isEqualTo("close");
            closer.join(5_000);
            assertThat(closer.isAlive()).isFalse();
            assertThat(service.closed).isTrue();
        }
    }

    @Test
    void headHealthHasNoBody() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response r = http.readHead();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("content-length")).isEqualTo("15");
            http.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n"); // nothing stray before the next response
            assertThat(http.read().body()).isEqualTo("{\"status\":\"ok\"}");
        }
    }

    @Test
    void utf8BodyArrivesIntact() throws Exception {
        String text = "日本語 \uD83D\uDE00";
        try (RawHttp http = new RawHttp(server.port())) {
            byte[] body = ("{\"t\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
            http.send(("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.Echo\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            http.send(body);
            assertThat(json(http.read().body()).path("input").path("t").asText()).isEqualTo(text);
        }
    }

    /** Polls a condition for at most 2 s. */
    static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 200 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
    }
}
