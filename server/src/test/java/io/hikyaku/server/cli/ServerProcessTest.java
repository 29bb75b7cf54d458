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
    private final java.util.Map<Process, Path> logs = new java.util.HashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stopChildren() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process hikyaku(String... args) throws IOException {
        return hikyakuWithHup(hupIgnoredHere() ? "default" : null, args);
    }

    /**
     * @param hup null: the child inherits this JVM's SIGHUP disposition; "default" or "ignore": it is started with
     *            SIGHUP so (through python3, which can reset a signal that was ignored on entry, unlike a shell)
     */
    private Process hikyakuWithHup(String hup, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (hup != null) {
            command.addAll(List.of("python3", "-c", "import os, signal, sys; signal.signal(signal.SIGHUP, signal."
                    + (hup.equals("ignore") ? "SIG_IGN" : "SIG_DFL") + "); os.execvp(sys.argv[1], sys.argv[1:])"));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "io.hikyaku.server.cli.Main"));
        command.addAll(List.of(args));
        // the child's log goes to a file: a pipe nobody reads would block its logging once full, and a failure
        // can quote it
        Path log = dir.resolve("child-" + (children.size() + 1) + ".log");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        children.add(p);
        logs.put(p, log);
        return p;
    }

    /** Whether this JVM was started with SIGHUP ignored (a test run under nohup): its children would inherit it. */
    private static boolean hupIgnoredHere() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 1L) != 0; // bit 0: signal 1, SIGHUP
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no /proc: assume the default disposition
        }
        return false;
    }

    /** The child's log so far, for a failure's message. */
    private String logOf(Process p) {
        try {
            return Files.readString(logs.get(p), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
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
        String err = logOf(second);
        assertThat(second.exitValue()).as(err).isEqualTo(1);
        assertThat(err).isEqualTo("hikyaku: data directory " + data + " is in use by another Hikyaku process\n");

        String queueUrl = endpoint + "/000000000000/q";
        assertThat(post(endpoint, "SendMessage", "{\"QueueUrl\":\"" + queueUrl + "\",\"MessageBody\":\"still here\"}").statusCode())
                .isEqualTo(200);

        // A backup from this (another) process goes through the child's ADMIN file.
        StartFailureTest.Outcome backup = StartFailureTest.run("backup", "--data-dir", data.toString(), "--to", dir.resolve("b").toString());
        assertThat(backup.code()).as(backup.err()).isZero();
        assertThat(backup.out()).contains("(online");
        // re-encryption is offline only: refused while the child holds the directory's lock, which it keeps
        StartFailureTest.Outcome reencrypt = StartFailureTest.run("reencrypt", "--data-dir", data.toString());
        assertThat(reencrypt.code()).isEqualTo(1);
        assertThat(reencrypt.err()).isEqualTo("hikyaku: data directory " + data
                + " is in use by another Hikyaku process: reencrypt works offline only, stop the server first\n");
        assertThat(post(endpoint, "GetQueueUrl", "{\"QueueName\":\"q\"}").statusCode()).isEqualTo(200);

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

    @Test
    void sighupReloadsTheIdentitiesOfTheConfigFile() throws Exception {
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, rootKeyConfig("AKIAHUPOLD0000000001"));
        Process server = hikyaku("serve", "--port", "0", "--storage", "memory", "--auth", "sigv4", "--config", config.toString());
        String endpoint = awaitServing(server);
        assertThat(signedListQueues(endpoint, "AKIAHUPOLD0000000001").statusCode()).isEqualTo(200);
        assertThat(signedListQueues(endpoint, "AKIAHUPNEW0000000002").body()).contains("The security token included in the request is invalid");

        Files.writeString(config, rootKeyConfig("AKIAHUPNEW0000000002"));
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(server.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a loaded CI machine is slow, not wrong
        HttpResponse<String> withNewKey = signedListQueues(endpoint, "AKIAHUPNEW0000000002");
        while (withNewKey.statusCode() != 200 && System.nanoTime() < deadline) {
            Thread.sleep(100); // the signal is handled on its own thread
            withNewKey = signedListQueues(endpoint, "AKIAHUPNEW0000000002");
        }
        assertThat(withNewKey.statusCode()).as(withNewKey.body() + "\nthe server's log:\n" + logOf(server)).isEqualTo(200);
        HttpResponse<String> withOldKey = signedListQueues(endpoint, "AKIAHUPOLD0000000001");
        assertThat(withOldKey.statusCode()).isEqualTo(403);
        assertThat(withOldKey.body()).contains("The security token included in the request is invalid");
        assertThat(server.isAlive()).as("SIGHUP does not stop the server").isTrue();
    }

    @Test
    void aServerStartedWithSighupIgnoredSaysItReloadsByRestartOnly() throws Exception {
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, rootKeyConfig("AKIAHUPOLD0000000001"));
        Process server = hikyakuWithHup("ignore", "serve", "--port", "0", "--storage", "memory", "--auth", "sigv4", "--config", config.toString());
        awaitServing(server);
        assertThat(logOf(server)).contains("SIGHUP is ignored by this process (started under nohup?): identities are reloaded by a restart only");
    }

    private static final String HUP_SECRET = "hup/secret/0123456789abcdefghijklmnopqrst";

    private static String rootKeyConfig(String keyId) {
        return "accounts:\n  - id: \"111111111111\"\n    rootKeys:\n      - {accessKeyId: " + keyId
                + ", secretAccessKey: \"" + HUP_SECRET + "\"}\n";
    }

    /** ListQueues signed with SigV4 (headers host and x-amz-date) by {@code keyId} and the test secret. */
    private HttpResponse<String> signedListQueues(String endpoint, String keyId) throws Exception {
        URI uri = URI.create(endpoint + "/");
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        String amzDate = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now());
        String host = uri.getHost() + ":" + uri.getPort();
        io.hikyaku.identity.sigv4.SignedRequest toSign = new io.hikyaku.identity.sigv4.SignedRequest("POST", "/", "",
                List.of(java.util.Map.entry("host", host), java.util.Map.entry("x-amz-date", amzDate)), body);
        List<String> signed = List.of("host", "x-amz-date");
        String canonical = io.hikyaku.identity.sigv4.Canonical.request(toSign, signed,
                io.hikyaku.identity.sigv4.Hashes.sha256Hex(body), false);
        String scope = amzDate.substring(0, 8) + "/us-east-1/sqs/aws4_request";
        String signature = io.hikyaku.identity.sigv4.Canonical.signature(HUP_SECRET, amzDate.substring(0, 8), "us-east-1", "sqs",
                io.hikyaku.identity.sigv4.Canonical.stringToSign(amzDate, scope, canonical));
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("X-Amz-Target", "AmazonSQS.ListQueues").header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Date", amzDate)
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=" + keyId + "/" + scope
                        + ", SignedHeaders=host;x-amz-date, Signature=" + signature)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
