package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --journal}: a real server records every command it applies; {@code hikyaku replay}
 * applies the journal to a fresh engine and reaches the same state digest the server recorded at
 * each stop (across a restart on the same data directory, which the journal records as a load).
 */
class JournalReplayTest {

    @TempDir
    Path dir;

    @Test
    void aReplayedJournalReachesTheStateTheServerRecorded() throws Exception {
        Path journal = dir.resolve("commands.journal");
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data"))
                .withDurability(DurabilityMode.FSYNC).withJournal(journal);
        String std;
        String fifo;
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            String dlq = sqs.create("dead", JsonSqs.input());
            String dlqArn = sqs.attributes(dlq).path("QueueArn").asText();
            std = sqs.create("plain", JsonSqs.input().put("VisibilityTimeout", "0")
                    .put("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"2\"}"));
            fifo = sqs.create("ordered.fifo", JsonSqs.input().put("FifoQueue", "true")
                    .put("ContentBasedDeduplication", "true"));
            ObjectNode tags = JsonSqs.input().put("QueueUrl", std);
            tags.putObject("Tags").put("team", "\u65e5\u672c");
            sqs.call("TagQueue", tags);
            traffic(sqs, std, fifo, 0);
            ObjectNode batch = JsonSqs.input().put("QueueUrl", std);
            var entries = batch.putArray("Entries");
            for (int i = 0; i < 10; i++) {
                ObjectNode e = entries.addObject().put("Id", "e" + i).put("MessageBody", "batch \uD83D\uDE80 " + i);
                e.putObject("MessageAttributes").putObject("n").put("DataType", "Number").put("StringValue", "" + i);
            }
            sqs.call("SendMessageBatch", batch);
            sqs.call("ChangeMessageVisibility", JsonSqs.input().put("QueueUrl", std)
                    .put("ReceiptHandle", sqs.receive(std, 1).get(0).path("ReceiptHandle").asText())
                    .put("VisibilityTimeout", 30));
            sqs.call("PurgeQueue", JsonSqs.input().put("QueueUrl", dlq));
        }
        long sizeAfterFirstRun = Files.size(journal);
        assertThat(sizeAfterFirstRun).isGreaterThan(1000);

        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            traffic(sqs, std, fifo, 100); // a restart: the journal gets a load frame, then more commands
            sqs.call("DeleteQueue", JsonSqs.input().put("QueueUrl", fifo));
        }
        assertThat(Files.size(journal)).isGreaterThan(sizeAfterFirstRun);

        ReplayRun replay = ReplayRun.of("--journal", journal.toString());
        assertThat(replay.exit()).as(replay.out()).isZero();
        assertThat(replay.out()).contains("(2 loads)").contains("matches the digest the server recorded at stop");
        String digest = replay.digest();

        Path fresh = dir.resolve("replayed");
        ReplayRun again = ReplayRun.of("--journal", journal.toString(), "--data-dir", fresh.toString(), "--expect-digest", digest);
        assertThat(again.exit()).as(again.out()).isZero();
        assertThat(again.out()).contains("matches --expect-digest");
        assertThat(fresh.resolve("CURRENT")).exists(); // the replayed store stays where it was asked to be

        ReplayRun wrong = ReplayRun.of("--journal", journal.toString(), "--expect-digest", "00" + digest.substring(2));
        assertThat(wrong.exit()).isEqualTo(1);
        assertThat(wrong.out()).contains("DIFFERS from --expect-digest");

        Path old = asLoadVersion1(journal, dir.resolve("v1.journal"));
        ReplayRun v1 = ReplayRun.of("--journal", old.toString());
        assertThat(v1.exit()).as("load frames without a window replay with the default one, which the server had")
                .isZero();
        assertThat(v1.digest()).isEqualTo(digest);

        ReplayRun v2 = ReplayRun.of("--journal", asLoadVersion2(journal, dir.resolve("v2.journal")).toString());
        assertThat(v2.exit()).as("load frames without a shard replay as the only shard").isZero();
        assertThat(v2.digest()).isEqualTo(digest);
    }

    @Test
    void aJournalRecordsTheIndexWindowAndTheReplayUsesIt() throws Exception {
        Path journal = dir.resolve("window.journal");
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data"))
                .withDurability(DurabilityMode.NONE).withJournal(journal).withIndexWindow(1024);
        String backlog;
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            backlog = sqs.create("backlog", JsonSqs.input());
            sendBatches(sqs, backlog, 0, 150); // 1,500 messages: past the window, the rest on disk
            for (JsonNode m : sqs.receive(backlog, 10)) {
                sqs.call("DeleteMessage", JsonSqs.input().put("QueueUrl", backlog)
                        .put("ReceiptHandle", m.path("ReceiptHandle").asText()));
            }
        }
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            sendBatches(sqs, backlog, 150, 20); // a restart: a load frame with the window again
            sqs.receive(backlog, 10);
        }
        ReplayRun replay = ReplayRun.of("--journal", journal.toString());
        assertThat(replay.exit()).as(replay.out()).isZero();
        assertThat(replay.out()).contains("(2 loads)").contains("matches the digest the server recorded at stop");

        // The same journal as an older server wrote it (no window in its load frames): replayed with
        // the default window, the indexes differ from the server's, and the replay says so.
        ReplayRun withoutWindow = ReplayRun.of("--journal", asLoadVersion1(journal, dir.resolve("v1.journal")).toString());
        assertThat(withoutWindow.exit()).as(withoutWindow.out()).isEqualTo(1);
        assertThat(withoutWindow.digest()).isNotEqualTo(replay.digest());
    }

    private static void sendBatches(JsonSqs sqs, String queue, int from, int batches) throws Exception {
        for (int b = from; b < from + batches; b++) {
            ObjectNode batch = JsonSqs.input().put("QueueUrl", queue);
            var entries = batch.putArray("Entries");
            for (int i = 0; i < 10; i++) {
                entries.addObject().put("Id", "e" + i).put("MessageBody", "m" + b + "-" + i);
            }
            sqs.call("SendMessageBatch", batch);
        }
    }

    /**
     * {@code journal} as a server before the recorded window wrote it: every load frame ends after
     * the store kind (its trailing load version byte, window, shard and id floor, 25 bytes, cut).
     */
    private static Path asLoadVersion1(Path journal, Path out) throws Exception {
        return asOlderLoadVersion(journal, out, 1);
    }

    /**
     * {@code journal} as a server before the recorded shard wrote it (load version 2): every load
     * frame ends after the window (its shard index, count and id floor, 16 bytes, cut).
     */
    static Path asLoadVersion2(Path journal, Path out) throws Exception {
        return asOlderLoadVersion(journal, out, 2);
    }

    private static Path asOlderLoadVersion(Path journal, Path out, int version) throws Exception {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(Files.readAllBytes(journal));
        java.io.ByteArrayOutputStream copy = new java.io.ByteArrayOutputStream();
        byte[] header = new byte[5];
        in.get(header);
        copy.write(header);
        java.io.DataOutputStream frames = new java.io.DataOutputStream(copy);
        int loads = 0;
        while (in.remaining() >= 4) {
            byte[] frame = new byte[in.getInt()];
            in.get(frame);
            int keep = frame.length;
            if (frame[0] == 'L') {
                assertThat(frame[frame.length - 25]).as("load version").isEqualTo((byte) 3);
                keep -= version == 1 ? 25 : 16;
                if (version == 2) {
                    frame[frame.length - 25] = 2;
                }
                loads++;
            }
            frames.writeInt(keep);
            frames.write(frame, 0, keep);
        }
        frames.flush();
        assertThat(loads).isPositive();
        Files.write(out, copy.toByteArray());
        return out;
    }

    @Test
    void aMemoryServerIsReplayedInMemory() throws Exception {
        Path journal = dir.resolve("memory.journal");
        ServerConfig config = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withJournal(journal);
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sqs = new JsonSqs(server.port())) {
            String std = sqs.create("plain", JsonSqs.input());
            String fifo = sqs.create("ordered.fifo", JsonSqs.input().put("FifoQueue", "true")
                    .put("ContentBasedDeduplication", "true"));
            traffic(sqs, std, fifo, 0);
        }
        ReplayRun replay = ReplayRun.of("--journal", journal.toString());
        assertThat(replay.exit()).as(replay.out()).isZero();
        assertThat(replay.out()).contains("(1 loads)").contains("matches the digest the server recorded at stop");
    }

    /** Sends, receives, deletes and reads on both queues; the FIFO sends repeat bodies (deduplicated). */
    private static void traffic(JsonSqs sqs, String std, String fifo, int from) throws Exception {
        for (int i = from; i < from + 20; i++) {
            sqs.send(std, "m" + i + " h\u00e9llo");
            sqs.call("SendMessage", JsonSqs.input().put("QueueUrl", fifo).put("MessageBody", "f" + (i % 7))
                    .put("MessageGroupId", "g" + (i % 3)));
        }
        for (int round = 0; round < 5; round++) {
            JsonNode got = sqs.receive(std, 10);
            for (int i = 0; i < got.size(); i += 2) {
                sqs.call("DeleteMessage", JsonSqs.input().put("QueueUrl", std)
                        .put("ReceiptHandle", got.get(i).path("ReceiptHandle").asText()));
            }
            JsonNode ordered = sqs.receive(fifo, 3);
            for (JsonNode m : ordered) {
                sqs.call("DeleteMessage", JsonSqs.input().put("QueueUrl", fifo)
                        .put("ReceiptHandle", m.path("ReceiptHandle").asText()));
            }
            sqs.attributes(std);
        }
    }
}
