package io.hikyaku.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} lists every account's queues (issue 35): with auth sigv4 it needs the bearer
 * token of --metrics-token-file and is refused to everyone without one; with auth none it stays open.
 */
class MetricsEndpointTest {

    private static final String ACCOUNTS = """
            accounts:
              - id: "111111111111"
                rootKeys:
                  - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
            """;

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();

    private HikyakuServer start(SecurityConfig security) {
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withQueues(List.of(new QueueDefinition("secret-orders", Map.of(), Map.of(), null, null, "111111111111")));
        return HikyakuServer.start(cfg, security);
    }

    private SecurityConfig sigv4() {
        Identities identities = new IdentitiesConfig(Map.<String, String>of()::get).parse(ConfigFile.parse(ACCOUNTS).accounts(), "test");
        return SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities);
    }

    private HttpResponse<String> scrape(HikyakuServer server, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.endpoint() + "/metrics"));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withSigv4AndNoTokenEveryScrapeIsRefused() throws Exception {
        try (HikyakuServer server = start(sigv4())) {
            HttpResponse<String> r = scrape(server, null);
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(r.body()).doesNotContain("secret-orders").contains("--metrics-token-file");
            assertThat(scrape(server, "Bearer guess").statusCode()).isEqualTo(403);
        }
    }

    @Test
    void withATokenFileAScrapeNeedsTheBearerToken() throws Exception {
        Path token = Files.writeString(dir.resolve("metrics-token"), "s3cr3t-scrape-token\n");
        try (HikyakuServer server = start(sigv4().withMetricsTokenFile(token))) {
            for (String wrong : new String[] {null, "Bearer s3cr3t-scrape-tokeX", "Basic czNjcjN0", "Bearer "}) {
                HttpResponse<String> r = scrape(server, wrong);
                assertThat(r.statusCode()).as(String.valueOf(wrong)).isEqualTo(401);
                assertThat(r.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"hikyaku-metrics\"");
                assertThat(r.body()).doesNotContain("secret-orders");
            }
            HttpResponse<String> ok = scrape(server, "Bearer s3cr3t-scrape-token");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).contains("queue=\"secret-orders\"");
        }
    }

    @Test
    void withAuthNoneTheMetricsStayOpen() throws Exception {
        try (HikyakuServer server = start(SecurityConfig.defaults())) {
            HttpResponse<String> r = scrape(server, null);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("queue=\"secret-orders\"");
        }
    }

    @Test
    void anEmptyTokenFileStopsTheStart() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), " \n");
        assertThatThrownBy(() -> MetricsEndpoint.readToken(empty)).hasMessageContaining("is empty");
    }
}
