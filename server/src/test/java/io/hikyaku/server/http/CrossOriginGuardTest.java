package io.hikyaku.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which Host values a browser request may carry with auth none (DNS rebinding), and that programs are never refused on theirs. */
class CrossOriginGuardTest {

    private final CrossOriginGuard wildcardBind = CrossOriginGuard.forAuthNone(List.of("queues.lan", ".dev.example"), "0.0.0.0", null);

    static HttpRequestData request(String... headerPairs) {
        Map<String, String> headers = new HashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        return new HttpRequestData("POST", "/", "", headers, new byte[0]);
    }

    @Test
    void browserRequestsMustNameAnAddressLocalhostOrAnAllowedHost() {
        for (String ok : List.of("127.0.0.1:9324", "127.0.0.1", "localhost:9324", "LOCALHOST", "app.localhost:9324", "[::1]:9324",
                "192.168.1.20:9324", "queues.lan:9324", "queues.lan.", "dev.example", "a.b.dev.example:80")) {
            assertThat(wildcardBind.allowedHost(ok)).as(ok).isTrue();
        }
        for (String refused : List.of("evil.example:9324", "queues.lan.evil.example", "xdev.example", "localhost.evil.example",
                "2130706433:9324", "", "a:b:c")) {
            assertThat(wildcardBind.allowedHost(refused)).as(refused).isFalse();
        }
        assertThat(wildcardBind.allowedHost(null)).isFalse();
    }

    @Test
    void theBoundAndAdvertisedHostsAreAllowedAndStarAllowsAny() {
        CrossOriginGuard named = CrossOriginGuard.forAuthNone(List.of(), "box.internal", "https://sqs.example.org:8443");
        assertThat(named.allowedHost("box.internal:9324")).isTrue();
        assertThat(named.allowedHost("sqs.example.org:8443")).isTrue();
        assertThat(named.allowedHost("other.internal:9324")).isFalse();
        assertThat(CrossOriginGuard.forAuthNone(List.of("*"), "0.0.0.0", null).allowedHost("anything.example")).isTrue();
    }

    @Test
    void aRebindingPageIsRefusedAProgramIsNot() {
        HttpRequestData rebound = request("host", "rebind.evil.example:9324", "origin", "http://rebind.evil.example:9324",
                "sec-fetch-site", "same-origin");
        assertThat(wildcardBind.refusal(rebound)).startsWith("Browser requests must name this server by an allowed host");
        assertThat(CrossOriginGuard.ORIGIN_ONLY.refusal(rebound)).isNull(); // auth sigv4: the signature decides
        assertThat(wildcardBind.refusal(request("host", "rebind.evil.example:9324", "user-agent", "Mozilla/5.0 (Macintosh) Safari/605")))
                .isNotNull(); // a browser that sends no Sec-Fetch-* is still a browser
        assertThat(wildcardBind.refusal(request("host", "sqs:9324", "user-agent", "aws-sdk-java/2.31 Linux/6.1"))).isNull();
        assertThat(wildcardBind.refusal(request("host", "sqs:9324"))).isNull();
        assertThat(wildcardBind.refusal(request("host", "127.0.0.1:9324", "origin", "http://127.0.0.1:9324", "sec-fetch-site", "same-origin")))
                .isNull();
        assertThat(wildcardBind.refusal(request("host", "127.0.0.1:9324", "origin", "http://evil.example"))).startsWith("Cross-origin");
    }
}
