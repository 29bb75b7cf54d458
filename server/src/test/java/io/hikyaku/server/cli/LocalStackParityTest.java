package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --localstack-parity}: LocalStack's port unless one is given, the {@code Ready.} line, its health path. */
class LocalStackParityTest {

    private static final Pattern SERVING = Pattern.compile("serving SQS at (http://127\\.0\\.0\\.1:\\d+)");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void offByDefaultAndOnFromTheConfigFileTheEnvironmentOrTheFlag() throws Exception {
        ServerConfig plain = new ServeCommand(Map.of()).resolveConfig();
        assertThat(plain.localStackParity()).isFalse();
        assertThat(plain.port()).isEqualTo(9324);
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "server:\n  localstackParity: true\n");
        assertThat(new ServeCommand(Map.of()).resolveConfig("--config", config.toString()).port()).isEqualTo(4566);
        assertThat(new ServeCommand(Map.of("HIKYAKU_LOCALSTACK_PARITY", "true")).resolveConfig().port()).isEqualTo(4566);
        ServerConfig flagged = new ServeCommand(Map.of()).resolveConfig("--localstack-parity");
        assertThat(flagged.localStackParity()).isTrue();
        assertThat(flagged.port()).isEqualTo(4566);
        assertThat(new ServeCommand(Map.of("HIKYAKU_LOCALSTACK_PARITY", "false")).resolveConfig("--config", config.toString())
                .localStackParity()).as("the environment over the file").isFalse();
    }

    @Test
    void aGivenPortWinsOverLocalStacksPort() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveConfig("--localstack-parity", "--port", "9811").port()).isEqualTo(9811);
        assertThat(new ServeCommand(Map.of("HIKYAKU_PORT", "9812")).resolveConfig("--localstack-parity").port()).isEqualTo(9812);
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "server:\n  port: 9813\n");
        assertThat(new ServeCommand(Map.of("HIKYAKU_LOCALSTACK_PARITY", "on")).resolveConfig("--config", config.toString())
                .port()).isEqualTo(9813);
    }

    @Test
    void theProcessPrintsReadyOnceServingAndAnswersLocalStacksHealthPath() throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "io.hikyaku.server.cli.Main", "serve", "--localstack-parity", "--port", "0", "--storage", "memory"));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String serving = CompletableFuture.supplyAsync(() -> readLine(out)).get(60, TimeUnit.SECONDS);
            Matcher m = SERVING.matcher(String.valueOf(serving));
            assertThat(m.find()).as(serving).isTrue();
            assertThat(serving).contains("LocalStack parity");
            assertThat(CompletableFuture.supplyAsync(() -> readLine(out)).get(10, TimeUnit.SECONDS)).isEqualTo("Ready.");
            HttpResponse<String> health = get(m.group(1) + "/_localstack/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.headers().firstValue("content-type")).hasValue("application/json");
            JsonNode services = new ObjectMapper().readTree(health.body()).get("services");
            for (String name : List.of("sqs", "sns", "kms", "scheduler", "cloudwatch", "sts")) {
                assertThat(services.path(name).asText()).as(name).isEqualTo("running");
            }
            assertThat(get(m.group(1) + "/health/ready").statusCode()).as("Hikyaku's own health path stays").isEqualTo(200);
        } finally {
            p.destroy();
            p.waitFor(20, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
    }

    @Test
    void withoutTheOptionThereIsNoLocalStackHealthPath() throws Exception {
        try (HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY))) {
            HttpResponse<String> health = get(server.endpoint() + "/_localstack/health");
            assertThat(health.statusCode()).isNotEqualTo(200);
            assertThat(health.body()).doesNotContain("\"services\"");
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String readLine(BufferedReader in) {
        try {
            return in.readLine();
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
