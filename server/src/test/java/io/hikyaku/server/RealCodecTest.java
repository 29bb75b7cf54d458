package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.http.Codecs;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server with the real SQS codec (both protocols) in front of the fake service. */
class RealCodecTest {

    FakeService service;
    HikyakuServer server;

    @BeforeEach
    void start() {
        service = new FakeService();
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withClock(Clock.systemUTC()), Codecs.standard(), service);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void jsonCallGetsAJsonAnswerWithTheQueueUrlFromTheHostHeader() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("CreateQueue", "{\"QueueName\":\"orders\"}").replace("Host: 127.0.0.1", "Host: localhost:" + server.port()));
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("content-type")).startsWith("application/x-amz-json-1.0");
            assertThat(FakeCodec.JSON.readTree(r.body()).path("QueueUrl").asText())
                    .isEqualTo("http://localhost:" + server.port() + "/000000000000/orders");
        }
        assertThat(service.calls.get(0).request().input().path("QueueName").asText()).isEqualTo("orders");
    }

    @Test
    void queryCallGetsXmlWhoseRequestIdMatchesTheHeader() throws Exception {
        String form = "Action=CreateQueue&QueueName=orders&Version=2012-11-05";
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                    + form.length() + "\r\n\r\n" + form);
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).contains("<CreateQueueResponse").contains("<QueueUrl>http://127.0.0.1/000000000000/orders</QueueUrl>")
                    .contains("<RequestId>" + r.header("x-amzn-RequestId") + "</RequestId>");
        }
    }

    @Test
    void unknownQueryActionIsAnXmlError() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("GET /?Action=FooBar&Version=2012-11-05 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.body()).contains("<Code>InvalidAction</Code>").contains(r.header("x-amzn-RequestId"));
        }
        assertThat(service.calls).isEmpty();
    }

    @Test
    void unexpectedServiceFailureIsA500InternalErrorInTheCallersProtocol() throws Exception {
        service.handlers.put("ListQueues", (ctx, req) -> java.util.concurrent.CompletableFuture.failedFuture(new RuntimeException("boom")));
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("ListQueues", "{}"));
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.body()).contains("InternalError");
            http.send(RawHttp.jsonCall("GetQueueUrl", "{\"QueueName\":\"q\"}"));
            assertThat(http.read().status()).isEqualTo(200); // the connection survives
        }
    }

    @Test
    void anOversizedJsonRequestGetsAJsonSqsError() throws Exception {
        int tooLarge = ServerConfig.DEFAULT_MAX_BODY_BYTES + 1;
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                    + "X-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: " + tooLarge + "\r\n\r\n");
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.header("content-type")).startsWith("application/x-amz-json-1.0");
            var error = FakeCodec.JSON.readTree(r.body());
            assertThat(error.path("__type").asText()).isEqualTo("com.amazonaws.sqs#RequestEntityTooLarge");
            assertThat(error.path("message").asText()).isEqualTo("Request body exceeds " + ServerConfig.DEFAULT_MAX_BODY_BYTES + " bytes.");
        }
        assertThat(service.calls).isEmpty();
    }

    @Test
    void anOversizedQueryRequestGetsAnXmlSqsError() throws Exception {
        int tooLarge = ServerConfig.DEFAULT_MAX_BODY_BYTES + 1;
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: " + tooLarge + "\r\n\r\n");
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.body()).contains("<ErrorResponse").contains("<Type>Sender</Type>")
                    .contains("<Code>RequestEntityTooLarge</Code>")
                    .contains("<RequestId>" + r.header("x-amzn-RequestId") + "</RequestId>");
        }
        assertThat(service.calls).isEmpty();
    }
}
