package io.hikyaku.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The console's HTTP surface without a browser: redirect, assets with their protective headers, only
 * known files, and no CORS approval for another origin (what makes the console CSRF-safe).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleHttpTest {

    private HikyakuServer server;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() {
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY));
    }

    @AfterAll
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create(server.endpoint() + path));
    }

    @Test
    void redirectsAndServesAssetsWithProtectiveHeaders() throws Exception {
        HttpResponse<String> redirect = send(at("/console"));
        assertThat(redirect.statusCode()).isEqualTo(301);
        assertThat(redirect.headers().firstValue("location")).hasValue("/console/");
        for (String path : new String[] {"/console/", "/console/app.js", "/console/sigv4.js", "/console/sqs-client.js", "/console/schedules.js", "/console/console.css"}) {
            HttpResponse<String> r = send(at(path));
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("x-frame-options")).as(path).hasValue("DENY");
            assertThat(r.headers().firstValue("x-content-type-options")).as(path).hasValue("nosniff");
            assertThat(r.headers().firstValue("content-security-policy").orElseThrow()).as(path)
                    .contains("default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'");
            assertThat(r.headers().firstValue("access-control-allow-origin")).as(path).isEmpty();
        }
        assertThat(send(at("/console/")).headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
        assertThat(send(at("/console/app.js")).headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
    }

    @Test
    void servesOnlyItsOwnFiles() throws Exception {
        for (String path : new String[] {"/console/nope.js", "/console/../pom.xml", "/console/io/hikyaku/console/ConsoleAssets.class",
                "/console/%2e%2e/x", "/console/static/app.js"}) {
            HttpResponse<String> r = send(at(path));
            assertThat(r.statusCode()).as(path).isIn(400, 404);
        }
        HttpResponse<String> post = send(at("/console/").POST(HttpRequest.BodyPublishers.ofString("x")));
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
    }

    @Test
    void anotherOriginGetsNoCorsApproval() throws Exception {
        HttpResponse<String> preflight = send(at("/").method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://evil.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "x-amz-target,content-type"));
        assertThat(preflight.statusCode()).isNotIn(200, 204);
        assertThat(preflight.headers().firstValue("access-control-allow-origin")).isEmpty();
        assertThat(preflight.headers().firstValue("access-control-allow-headers")).isEmpty();
        assertThat(preflight.headers().firstValue("access-control-allow-methods")).isEmpty();
        HttpResponse<String> call = send(at("/").POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("Origin", "http://evil.example")
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "AmazonSQS.ListQueues"));
        assertThat(call.statusCode()).isEqualTo(403);
        assertThat(call.body()).contains("AccessDenied", "Cross-origin browser requests are refused");
        assertThat(call.headers().firstValue("access-control-allow-origin")).isEmpty();
        assertThat(call.headers().firstValue("access-control-allow-credentials")).isEmpty();
    }

    /**
     * With auth none a page from another origin cannot act through the visitor's browser: an HTML
     * form POST (no preflight) and an image GET are refused by their Origin / Sec-Fetch-Site headers.
     */
    @Test
    void refusesCrossOriginSimpleRequestsThatWouldChangeState() throws Exception {
        HttpResponse<String> form = send(at("/").POST(HttpRequest.BodyPublishers.ofString("Action=CreateQueue&QueueName=csrf-form"))
                .header("Origin", "http://evil.example")
                .header("Content-Type", "application/x-www-form-urlencoded"));
        assertThat(form.statusCode()).isEqualTo(403);
        assertThat(form.body()).contains("<Code>AccessDenied</Code>");
        HttpResponse<String> nullOrigin = send(at("/").POST(HttpRequest.BodyPublishers.ofString("Action=CreateQueue&QueueName=csrf-null"))
                .header("Origin", "null")
                .header("Content-Type", "application/x-www-form-urlencoded"));
        assertThat(nullOrigin.statusCode()).isEqualTo(403);
        HttpResponse<String> image = send(at("/?Action=CreateQueue&QueueName=csrf-image").header("Sec-Fetch-Site", "cross-site"));
        assertThat(image.statusCode()).isEqualTo(403);
        HttpResponse<String> sameSite = send(at("/?Action=CreateQueue&QueueName=csrf-same-site").header("Sec-Fetch-Site", "same-site"));
        assertThat(sameSite.statusCode()).isEqualTo(403); // another port of localhost is another origin
        HttpResponse<String> list = send(at("/").POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "AmazonSQS.ListQueues"));
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).doesNotContain("csrf-");

        // The console's own calls: same origin, and programs that send neither header, still work.
        String origin = "http://" + URI.create(server.endpoint()).getRawAuthority();
        HttpResponse<String> own = send(at("/").POST(HttpRequest.BodyPublishers.ofString("{\"QueueName\":\"same-origin\"}"))
                .header("Origin", origin).header("Sec-Fetch-Site", "same-origin")
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "AmazonSQS.CreateQueue"));
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(send(at("/?Action=GetQueueUrl&QueueName=same-origin")).statusCode()).isEqualTo(200);
    }
}
