package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.server.admin.AdminFile;
import io.hikyaku.server.cli.HikyakuCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hikyaku backup} against a running server that keeps taking sends, then a server on the copy. */
class OnlineBackupTest {

    @TempDir
    Path dir;

    @Test
    void aRunningServerIsBackedUpWhileAClientKeepsSending() throws Exception {
        Path data = dir.resolve("data");
        Path backup = dir.resolve("backup");
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(data).withDurability(DurabilityMode.FSYNC);
        List<String> acknowledged = new CopyOnWriteArrayList<>();
        Set<String> expectedVisible = new HashSet<>();
        Map<String, String> inFlight = new HashMap<>(); // body -> receipt handle
        String url;
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            AdminFile admin = AdminFile.read(data).orElseThrow();
            assertThat(admin.url()).isEqualTo("http://127.0.0.1:" + server.port());
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(AdminFile.in(data)))).isEqualTo("rw-------");

            url = sqs.call("CreateQueue", JsonSqs.input().put("QueueName", "work")).path("QueueUrl").asText();
            for (int i = 0; i < 30; i++) {
                sqs.send(url, "before-" + i);
                expectedVisible.add("before-" + i);
            }
            for (JsonNode m : sqs.receive(url, 5)) {
                inFlight.put(m.path("Body").asText(), m.path("ReceiptHandle").asText());
            }
            assertThat(inFlight).hasSize(5);
            expectedVisible.removeAll(inFlight.keySet());

            AtomicBoolean stop = new AtomicBoolean();
            Thread sender = new Thread(() -> keepSending(server.port(), url, stop, acknowledged), "test-sender");
            sender.start();
            try {
                waitUntil(() -> acknowledged.size() >= 20);
                List<String> ackedBeforeBackup = List.copyOf(acknowledged);
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out, true), new PrintWriter(err, true))
                        .execute("backup", "--data-dir", data.toString(), "--to", backup.toString());
                assertThat(code).as(err.toString()).isZero();
                assertThat(out.toString()).contains("(online");
                expectedVisible.addAll(ackedBeforeBackup);
                waitUntil(() -> acknowledged.size() >= ackedBeforeBackup.size() + 10); // the server kept serving
            } finally {
                stop.set(true);
                sender.join(10_000);
            }
            assertThat(sqs.call("ListQueues", JsonSqs.input()).path("QueueUrls")).hasSize(1); // still healthy
        }
        assertThat(AdminFile.in(data)).doesNotExist(); // removed at the clean stop
        // encrypted messages need the keys' log (in the backup) and the master key (kept apart: a restore puts it back)
        assertThat(backup.resolve("kms").resolve("master.key")).doesNotExist();
        java.nio.file.Files.copy(data.resolve("kms").resolve("master.key"), backup.resolve("kms").resolve("master.key"));

        try (HikyakuServer restored = HikyakuServer.start(config.withDataDir(backup)); JsonSqs sqs = new JsonSqs(restored.port())) {
            assertThat(sqs.queueUrl("work")).isEqualTo(url);
            assertThat(sqs.attribute(url, "ApproximateNumberOfMessagesNotVisible")).isEqualTo(5);
            Set<String> received = new HashSet<>();
            List<String> duplicates = new ArrayList<>();
            for (int round = 0; round < 500; round++) {
                JsonNode batch = sqs.receive(url, 10);
                if (batch.isEmpty()) {
                    break;
                }
                for (JsonNode m : batch) {
                    if (!received.add(m.path("Body").asText())) {
                        duplicates.add(m.path("Body").asText());
                    }
                }
            }
            assertThat(duplicates).isEmpty();
            assertThat(received).containsAll(expectedVisible).doesNotContainAnyElementsOf(inFlight.keySet());
            // A receipt handle handed out by the original server still deletes on the copy.
            String body = inFlight.keySet().iterator().next();
            sqs.call("DeleteMessage", JsonSqs.input().put("QueueUrl", url).put("ReceiptHandle", inFlight.get(body)));
            assertThat(sqs.attribute(url, "ApproximateNumberOfMessagesNotVisible")).isEqualTo(4 + received.size());
        }
    }

    private static void keepSending(int port, String url, AtomicBoolean stop, List<String> acknowledged) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (JsonSqs sqs = new JsonSqs(port)) {
            for (int i = 0; i < 5_000 && !stop.get() && System.nanoTime() < deadline; i++) {
                sqs.send(url, "live-" + i);
                acknowledged.add("live-" + i);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("timed out").isLessThan(deadline);
            Thread.sleep(10);
        }
    }
}
