package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A page on a name its attacker re-points at 127.0.0.1 sends same-origin requests whose Origin and
 * Host both carry that name: with auth none the real server refuses them with SQS's AccessDenied,
 * and still answers SDK-like clients whatever Host they send.
 */
class DnsRebindingTest {

    static String call(String host, String... extra) {
        String body = "{}";
        StringBuilder sb = new StringBuilder("POST / HTTP/1.1\r\nHost: ").append(host).append("\r\n")
                .append("X-Amz-Target: AmazonSQS.ListQueues\r\nContent-Type: application/x-amz-json-1.0\r\n");
        for (String h : extra) {
            sb.append(h).append("\r\n");
        }
        return sb.append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body).toString();
    }

    @Test
    void aRebindingPageCannotListQueuesButProgramsAndLocalPagesCan() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withQueues(List.of(QueueDefinition.named("orders")));
        try (HikyakuServer server = HikyakuServer.start(config, SecurityConfig.defaults().withAllowedHosts(List.of("queues.lan")));
             RawHttp http = new RawHttp(server.port())) {
            String evil = "rebind.evil.example:" + server.port();
            http.send(call(evil, "Origin: http://" + evil, "Sec-Fetch-Site: same-origin", "Sec-Fetch-Mode: cors",
                    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0"));
            RawHttp.Response refused = http.read();
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.body()).contains("AccessDenied").contains("allowed host").doesNotContain("orders");

            // nor read every queue's name from /metrics
            http.send("GET /metrics HTTP/1.1\r\nHost: " + evil + "\r\nSec-Fetch-Site: same-origin\r\nUser-Agent: Mozilla/5.0\r\n\r\n");
            RawHttp.Response metrics = http.read();
            assertThat(metrics.status()).isEqualTo(403);
            assertThat(metrics.body()).doesNotContain("orders");

            for (String ok : List.of("127.0.0.1:" + server.port(), "localhost:" + server.port(), "queues.lan:" + server.port())) {
                http.send(call(ok, "Origin: http://" + ok, "Sec-Fetch-Site: same-origin", "User-Agent: Mozilla/5.0"));
                RawHttp.Response r = http.read();
                assertThat(r.status()).as(ok).isEqualTo(200);
                assertThat(r.body()).contains("orders");
            }
            for (String programHost : List.of("sqs:9324", evil)) { // a container's service name; no browser headers at all
                http.send(call(programHost, "User-Agent: aws-sdk-java/2.31.0 Linux/6.1"));
                assertThat(http.read().status()).as(programHost).isEqualTo(200);
            }
        }
    }

    @Test
    void withAuthSigv4TheHostIsNotChecked() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY);
        try (HikyakuServer server = HikyakuServer.start(config, SecurityConfig.defaults()
                .withAuth(io.hikyaku.identity.AuthMode.SIGV4).withIdentities(io.hikyaku.identity.Identities.NONE));
             RawHttp http = new RawHttp(server.port())) {
            http.send(call("any.example", "Sec-Fetch-Site: none", "User-Agent: Mozilla/5.0"));
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(403); // the anonymous caller is not authorized: the signature decides, not the Host
            assertThat(r.body()).contains("Access to the resource").doesNotContain("allowed host");
        }
    }
}
