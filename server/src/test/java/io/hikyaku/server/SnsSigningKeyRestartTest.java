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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SNS signing key is made once, owner-only, in the data dir: after a restart the server signs with the same key
 * and serves the same certificate at the same SigningCertURL, so subscribers that cached it keep verifying.
 */
class SnsSigningKeyRestartTest {

    private static final HttpClient WEB = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static HttpResponse<String> get(String url) throws Exception {
        return WEB.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void sns(HikyakuServer server, String form) throws Exception {
        HttpResponse<String> r = WEB.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Version=2010-03-31&" + form)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    @Test
    void theSameCertificateIsServedAfterARestart() throws Exception {
        LinkedBlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/", e -> {
            bodies.add(new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            e.sendResponseHeaders(200, -1);
            e.close();
        });
        hook.start();
        ObjectMapper json = new ObjectMapper();
        String endpoint = URLEncoder.encode("http://127.0.0.1:" + hook.getAddress().getPort() + "/h", StandardCharsets.UTF_8);
        String topicArn = "arn:aws:sns:us-east-1:000000000000:signed";
        String topic = URLEncoder.encode(topicArn, StandardCharsets.UTF_8);
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data"));
        String certUrlPath;
        String pem;
        try {
            try (HikyakuServer server = HikyakuServer.start(config)) {
                sns(server, "Action=CreateTopic&Name=signed");
                sns(server, "Action=Subscribe&TopicArn=" + topic + "&Protocol=http&Endpoint=" + endpoint);
                JsonNode confirmation = json.readTree(bodies.poll(20, TimeUnit.SECONDS));
                String url = confirmation.path("SigningCertURL").asText();
                certUrlPath = URI.create(url).getPath();
                pem = get(url).body();
                assertThat(pem).startsWith("-----BEGIN CERTIFICATE-----");
                assertThat(get(confirmation.path("SubscribeURL").asText()).statusCode()).isEqualTo(200);
            }
            Path key = dir.resolve("data").resolve("sns").resolve("signing-key.pem");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
            try (HikyakuServer server = HikyakuServer.start(config)) {
                sns(server, "Action=Publish&TopicArn=" + topic + "&Message=after+the+restart");
                JsonNode notification = json.readTree(bodies.poll(20, TimeUnit.SECONDS));
                assertThat(notification.path("Message").asText()).isEqualTo("after the restart");
                String url = notification.path("SigningCertURL").asText();
                assertThat(URI.create(url).getPath()).isEqualTo(certUrlPath);
                assertThat(get(url).body()).isEqualTo(pem);
                assertThat(get(server.endpoint() + "/_aws/sns/SimpleNotificationService-0123.pem").statusCode()).isEqualTo(404);
            }
        } finally {
            hook.stop(0);
        }
    }
}
