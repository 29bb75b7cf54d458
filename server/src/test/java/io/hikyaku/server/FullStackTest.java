package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.server.cli.HikyakuCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real codec, service and stores behind the server, driven over raw HTTP. */
class FullStackTest {

    @TempDir
    Path dir;

    static JsonNode call(RawHttp http, String action, String body) throws Exception {
        http.send(RawHttp.jsonCall(action, body));
        RawHttp.Response r = http.read();
        assertThat(r.status()).as(action + " " + r.body()).isEqualTo(200);
        return FakeCodec.JSON.readTree(r.body());
    }

    @Test
    void configuredQueuesExistWithTheirDeadLetterWiring() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withQueues(List.of(
                new QueueDefinition("orders", Map.of("VisibilityTimeout", "45"), Map.of("team", "shop"), "orders-dlq", 3),
                QueueDefinition.named("orders-dlq")));
        try (HikyakuServer server = HikyakuServer.start(config); RawHttp http = new RawHttp(server.port())) {
            String url = call(http, "GetQueueUrl", "{\"QueueName\":\"orders\"}").path("QueueUrl").asText();
            assertThat(url).isEqualTo("http://127.0.0.1/000000000000/orders"); // from the Host header
            JsonNode attrs = call(http, "GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}").path("Attributes");
            assertThat(attrs.path("VisibilityTimeout").asText()).isEqualTo("45");
            assertThat(attrs.path("RedrivePolicy").asText()).contains("arn:aws:sqs:us-east-1:000000000000:orders-dlq");
            assertThat(call(http, "ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}").path("Tags").path("team").asText()).isEqualTo("shop");
        }
    }

    @Test
    void aLongPollIsWokenBySendFromAnotherConnection() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(Clock.systemUTC())
                .withQueues(List.of(QueueDefinition.named("q")));
        try (HikyakuServer server = HikyakuServer.start(config);
             RawHttp poller = new RawHttp(server.port()); RawHttp sender = new RawHttp(server.port())) {
            String url = call(sender, "GetQueueUrl", "{\"QueueName\":\"q\"}").path("QueueUrl").asText();
            poller.send(RawHttp.jsonCall("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}"));
            assertThat(poller.silentFor(300)).isTrue(); // parked
            call(sender, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"wake\"}");
            RawHttp.Response r = poller.read();
            assertThat(FakeCodec.JSON.readTree(r.body()).path("Messages").get(0).path("Body").asText()).isEqualTo("wake");
        }
    }

    @Test
    void closingAnswersAParkedLongPollWithAnEmptyReceive() throws Exception {
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(Clock.systemUTC())
                .withQueues(List.of(QueueDefinition.named("q")));
        HikyakuServer server = HikyakuServer.start(config);
        try (RawHttp poller = new RawHttp(server.port())) {
            String url = call(poller, "GetQueueUrl", "{\"QueueName\":\"q\"}").path("QueueUrl").asText();
            poller.send(RawHttp.jsonCall("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}"));
            assertThat(poller.silentFor(200)).isTrue();
            long start = System.nanoTime();
            server.close(); // waits the 5 s grace, then the service releases the poll
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
            RawHttp.Response r = poller.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(FakeCodec.JSON.readTree(r.body()).path("Messages").isMissingNode()).isTrue();
        } finally {
            server.close();
        }
    }

    @Test
    void rocksDbStateSurvivesARestartAndCanBeBackedUp() throws Exception {
        Path data = dir.resolve("data");
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(data).withDurability(DurabilityMode.FSYNC);
        String url;
        try (HikyakuServer server = HikyakuServer.start(config); RawHttp http = new RawHttp(server.port())) {
            url = call(http, "CreateQueue", "{\"QueueName\":\"durable\"}").path("QueueUrl").asText();
            call(http, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"kept\"}");
        }
        StringWriter out = new StringWriter();
        int code = HikyakuCommand.commandLine(Map.of(), new PrintWriter(out), new PrintWriter(new StringWriter()))
                .execute("backup", "--data-dir", data.toString(), "--to", dir.resolve("backup").toString());
        assertThat(code).isZero();
        assertThat(Files.list(dir.resolve("backup")).count()).isPositive();
        // the backup holds the keys' log but not the master key (kept apart from backups): a restore puts it back
        assertThat(dir.resolve("backup").resolve("kms").resolve("commands.log")).exists();
        assertThat(dir.resolve("backup").resolve("kms").resolve("master.key")).doesNotExist();
        Files.copy(data.resolve("kms").resolve("master.key"), dir.resolve("backup").resolve("kms").resolve("master.key"));

        for (Path d : List.of(data, dir.resolve("backup"))) {
            try (HikyakuServer server = HikyakuServer.start(config.withDataDir(d)); RawHttp http = new RawHttp(server.port())) {
                JsonNode got = call(http, "ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}");
                assertThat(got.path("Messages").get(0).path("Body").asText()).as(d.toString()).isEqualTo("kept");
            }
        }
    }
}
