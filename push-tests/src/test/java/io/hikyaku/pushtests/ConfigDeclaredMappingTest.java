package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import io.hikyaku.push.MappingMetrics;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.server.config.ConfigResolver;
import io.hikyaku.server.config.Settings;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Functions and mappings declared in the config file: created at the first start, brought up to date at the next. */
class ConfigDeclaredMappingTest {

    private final JavaEndpoint java;
    private final Path dataDir;
    private HikyakuServer server;

    ConfigDeclaredMappingTest() throws Exception {
        java = new JavaEndpoint(null);
        dataDir = Files.createTempDirectory("push-config");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        java.close();
    }

    private HikyakuServer start(String yaml) {
        ConfigFile file = ConfigFile.parse(yaml);
        ServerConfig config = ConfigResolver.resolve(ServerConfig.defaults(), file, Settings.NONE, Settings.NONE)
                .withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir).withClock(new MutableClock(Instant.now()));
        return HikyakuServer.start(config);
    }

    private String yaml(int batchSize, int visibility) {
        return """
                queues:
                  - name: cfg-orders
                    attributes:
                      VisibilityTimeout: %d
                functions:
                  - name: cfg-fn
                    url: %s
                    timeoutSeconds: 10
                    headers:
                      X-Api-Key: abc
                eventSourceMappings:
                  - functionName: cfg-fn
                    queue: cfg-orders
                    batchSize: %d
                    functionResponseTypes: [ReportBatchItemFailures]
                    filters:
                      - '{"body": [{"prefix": "order"}]}'
                """.formatted(visibility, java.url(), batchSize);
    }

    private String listMappings() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.endpoint() + "/2015-03-31/event-source-mappings/")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    @Test
    void aDeclaredMappingIsCreatedOnceAndUpdatedFromTheFile() throws Exception {
        java.handler(e -> new SQSBatchResponse(List.of()));
        server = start(yaml(2, 60));
        assertThat(listMappings()).contains("\"BatchSize\":2").contains("ReportBatchItemFailures").contains("prefix");
        MappingMetrics m = server.push().metrics().iterator().next();
        assertThat(m.functionName()).isEqualTo("cfg-fn");
        server.close();

        server = start(yaml(3, 60));
        String listed = listMappings();
        assertThat(listed).contains("\"BatchSize\":3").doesNotContain("\"BatchSize\":2");
        assertThat(listed.split("\"UUID\"", -1)).hasSize(2); // still one mapping
        server.close();

        assertThatThrownBy(() -> start(yaml(3, 5)))
                .hasMessageContaining("Queue visibility timeout: 5 seconds is less than Function timeout: 10 seconds");
        server = null;
    }
}
