package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The server hands its --outbound-allow to SNS: a list without loopback refuses a loopback subscriber, sending nothing. */
class SnsOutboundAllowTest {

    private static HttpResponse<String> sns(HikyakuServer server, String form) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Version=2010-03-31&" + form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theConfiguredListDecidesWhatMaySubscribe() throws Exception {
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger posts = new AtomicInteger();
        hook.createContext("/", e -> {
            posts.incrementAndGet();
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        hook.start();
        String url = URLEncoder.encode("http://127.0.0.1:" + hook.getAddress().getPort() + "/h", StandardCharsets.UTF_8);
        String topic = URLEncoder.encode("arn:aws:sns:us-east-1:000000000000:t", StandardCharsets.UTF_8);
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY);
        try (HikyakuServer server = HikyakuServer.start(config, SecurityConfig.defaults().withOutboundAllow("10.0.0.0/8"))) {
            assertThat(sns(server, "Action=CreateTopic&Name=t").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = sns(server, "Action=Subscribe&TopicArn=" + topic + "&Protocol=http&Endpoint=" + url);
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body()).contains("<Code>InvalidParameter</Code>")
                    .contains("Invalid parameter: Endpoint Reason: the address 127.0.0.1 is not in the server's outbound allow-list");
        }
        try (HikyakuServer server = HikyakuServer.start(config, SecurityConfig.defaults())) {
            assertThat(sns(server, "Action=CreateTopic&Name=t").statusCode()).isEqualTo(200);
            HttpResponse<String> ok = sns(server, "Action=Subscribe&TopicArn=" + topic + "&Protocol=http&Endpoint=" + url);
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            for (int i = 0; i < 100 && posts.get() == 0; i++) {
                Thread.sleep(50);
            }
            assertThat(posts).hasValue(1); // the default (loopback) let the SubscriptionConfirmation go
        } finally {
            hook.stop(0);
        }
    }
}
