package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP outbox is durable: a notification waiting for its next retry when the server stops is sent again by the
 * next start (the same MessageId and body), without waiting for the old schedule.
 */
class SnsOutboxRestartTest {

    private static final HttpClient WEB = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String sns(HikyakuServer server, String form) throws Exception {
        HttpResponse<String> r = WEB.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Version=2010-03-31&" + form)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void aDeliveryWaitingToRetryIsSentAfterARestart() throws Exception {
        LinkedBlockingQueue<JsonNode> posts = new LinkedBlockingQueue<>();
        AtomicBoolean up = new AtomicBoolean(false);
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/", e -> {
            JsonNode body = JSON.readTree(e.getRequestBody().readAllBytes());
            posts.add(body);
            boolean notification = "Notification".equals(body.path("Type").asText());
            e.sendResponseHeaders(notification && !up.get() ? 503 : 200, -1);
            e.close();
        });
        hook.start();
        String topic = "arn:aws:sns:us-east-1:000000000000:durable";
        String endpoint = "http://127.0.0.1:" + hook.getAddress().getPort() + "/h";
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data"));
        try {
            String messageId;
            try (HikyakuServer server = HikyakuServer.start(config)) {
                sns(server, "Action=CreateTopic&Name=durable");
                sns(server, "Action=Subscribe&TopicArn=" + enc(topic) + "&Protocol=http&Endpoint=" + enc(endpoint)
                        + "&Attributes.entry.1.key=DeliveryPolicy&Attributes.entry.1.value="
                        + enc("{\"healthyRetryPolicy\":{\"numRetries\":3,\"minDelayTarget\":600,\"maxDelayTarget\":600}}"));
                JsonNode confirmation = posts.poll(20, TimeUnit.SECONDS);
                sns(server, "Action=ConfirmSubscription&TopicArn=" + enc(topic) + "&Token=" + confirmation.path("Token").asText());
                String answer = sns(server, "Action=Publish&TopicArn=" + enc(topic) + "&Message=keep+me");
                messageId = answer.replaceAll("(?s).*<MessageId>([^<]+)</MessageId>.*", "$1");
                JsonNode first = posts.poll(20, TimeUnit.SECONDS);
                assertThat(first.path("MessageId").asText()).isEqualTo(messageId); // refused with 503: next try in 600 s
            }
            up.set(true);
            try (HikyakuServer server = HikyakuServer.start(config)) {
                JsonNode again = posts.poll(20, TimeUnit.SECONDS);
                assertThat(again).as("the delivery after the restart").isNotNull();
                assertThat(again.path("MessageId").asText()).isEqualTo(messageId);
                assertThat(again.path("Message").asText()).isEqualTo("keep me");
            }
            try (HikyakuServer server = HikyakuServer.start(config)) {
                assertThat(posts.poll(2, TimeUnit.SECONDS)).as("delivered once: not again after another restart").isNull();
            }
        } finally {
            hook.stop(0);
        }
    }
}
