package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.admin.AdminFile;
import java.io.BufferedReader;
import java.io.IOException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real {@code Main} in child JVMs: a second server on a used directory, online backup across processes, SIGTERM. */
class ServerProcessTest {

    private static final Pattern SERVING = Pattern.compile("serving SQS at (http://127\\.0\\.0\\.1:\\d+)");

    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();
    private final java.util.Map<Process, BufferedReader> stdout = new java.util.HashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stopChildren() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process hikyaku(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "io.hikyaku.server.cli.Main"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        children.add(p);
        return p;
    }

    /** The endpoint from the start-up line, waiting at most 60 s. */
    private String awaitServing(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        stdout.put(p, out);
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(60, TimeUnit.SECONDS);
        assertThat(line).as("start-up line").isNotNull();
        Matcher m = SERVING.matcher(line);
        assertThat(m.find()).as(line).isTrue();
        return m.group(1);
    }

    private HttpResponse<String> post(String endpoint, String action, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(endpoint + "/")).timeout(Duration.ofSeconds(10))
                .header("X-Amz-Target", "AmazonSQS." + action).header("Content-Type", "application/x-amz-json-1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aSecondServerIsRefusedTheFirstKeepsServingAndSigtermStopsCleanly() throws Exception {
        Path data = dir.resolve("data");
        Process first = hikyaku("serve", "--port", "0", "--data-dir", data.toString());
        String endpoint = awaitServing(first);
        assertThat(post(endpoint, "CreateQueue", "{\"QueueName\":\"q\"}").statusCode()).isEqualTo(200);

        Process second = hikyaku("serve", "--port", "0", "--data-dir", data.toString());
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.exitValue()).as(err).isEqualTo(1);
        assertThat(err).isEqualTo("hikyaku: data directory " + data + " is in use by another Hikyaku process\n");

        String queueUrl = endpoint + "/000000000000/q";
        assertThat(post(endpoint, "SendMessage", "{\"QueueUrl\":\"" + queueUrl + "\",\"MessageBody\":\"still here\"}").statusCode())
                .isEqualTo(200);

        // A backup from this (another) process goes through the child's ADMIN file.
        StartFailureTest.Outcome backup = StartFailureTest.run("backup", "--data-dir", data.toString(), "--to", dir.resolve("b").toString());
        assertThat(backup.code()).as(backup.err()).isZero();
        assertThat(backup.out()).contains("(online");

        first.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its stdout): the hook closes the server
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String stopLines = String.join("\n", stdout.get(first).lines().toList());
        assertThat(stopLines).contains("hikyaku stopping").contains("hikyaku stopped");
        assertThat(AdminFile.in(data)).doesNotExist();
        assertThat(Files.exists(dir.resolve("b").resolve("FORMAT"))).isTrue();
    }

    @Test
    void afterAKillTheStaleAdminFileIsIgnoredAndTheBackupIsOffline() throws Exception {
        Path data = dir.resolve("data");
        Process server = hikyaku("serve", "--port", "0", "--data-dir", data.toString());
        awaitServing(server);
        server.destroyForcibly(); // SIGKILL: ADMIN stays behind
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(AdminFile.in(data)).exists();

        StartFailureTest.Outcome backup = StartFailureTest.run("backup", "--data-dir", data.toString(), "--to", dir.resolve("b").toString());
        assertThat(backup.code()).as(backup.err()).isZero();
        assertThat(backup.out()).contains("(offline");
    }
}
