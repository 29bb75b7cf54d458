package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.engine.EngineShard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --engine-shards 2 --journal FILE}: each shard records its commands in
 * FILE.shard-i-of-2; {@code hikyaku replay --journal FILE} replays each into a store of its own and
 * reaches the digest every shard recorded at each stop, across a restart in which one shard's new
 * queues get ids above the other shard's.
 */
class ShardedJournalReplayTest {

    /** Two accounts that fall on different shards of two. */
    private static final String A = "000000000000";
    private static final String B = "333333333333";

    @TempDir
    Path dir;

    @Test
    void everyShardsJournalReplaysToTheDigestItRecorded() throws Exception {
        assertThat(EngineShard.of(A, 2)).isNotEqualTo(EngineShard.of(B, 2));
        Path journal = dir.resolve("commands.journal");
        ServerConfig config = ServerConfig.defaults().withPort(0).withDataDir(dir.resolve("data"))
                .withDurability(DurabilityMode.NONE).withJournal(journal).withEngineShards(2);
        String a;
        String aFifo;
        String b;
        String bGone;
        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sa = new JsonSqs(server.port(), A);
             JsonSqs sb = new JsonSqs(server.port(), B)) {
            a = sa.create("plain", JsonSqs.input());
            b = sb.create("plain", JsonSqs.input().put("VisibilityTimeout", "0"));
            aFifo = sa.create("ordered.fifo", JsonSqs.input().put("FifoQueue", "true")
                    .put("ContentBasedDeduplication", "true"));
            bGone = sb.create("gone", JsonSqs.input());
            for (int i = 0; i < 3; i++) {
                sb.create("more-" + i, JsonSqs.input()); // B's shard takes ids well above A's
            }
            for (int round = 0; round < 3; round++) {
                traffic(sa, a, 10 * round);
                traffic(sb, b, 10 * round);
                sa.call("SendMessage", JsonSqs.input().put("QueueUrl", aFifo).put("MessageBody", "f" + (round % 2))
                        .put("MessageGroupId", "g"));
                sb.send(bGone, "doomed " + round);
            }
        }
        Path shard0 = journal.resolveSibling("commands.journal.shard-0-of-2");
        Path shard1 = journal.resolveSibling("commands.journal.shard-1-of-2");
        assertThat(shard0).exists();
        assertThat(shard1).exists();
        assertThat(journal).doesNotExist(); // with several shards only the suffixed files are written

        try (HikyakuServer server = HikyakuServer.start(config); JsonSqs sa = new JsonSqs(server.port(), A);
             JsonSqs sb = new JsonSqs(server.port(), B)) {
            // a restart: each file gets a load; A's shard allocates above the ids B's shard took
            sa.create("after-restart", JsonSqs.input());
            traffic(sa, a, 100);
            traffic(sb, b, 100);
            sb.call("DeleteQueue", JsonSqs.input().put("QueueUrl", bGone));
            sa.call("PurgeQueue", JsonSqs.input().put("QueueUrl", aFifo));
        }

        ReplayRun replay = ReplayRun.of("--journal", journal.toString());
        assertThat(replay.exit()).as(replay.out()).isZero();
        assertThat(replay.out()).contains("shard 0 of 2: replayed").contains("shard 1 of 2: replayed")
                .contains("every shard matches the digest it recorded at stop");
        assertThat(replay.out().lines().filter(l -> l.contains("(2 loads)") && l.contains("matches the digest recorded"))
                .count()).as(replay.out()).isEqualTo(2);

        Path kept = dir.resolve("replayed");
        ReplayRun intoDir = ReplayRun.of("--journal", journal.toString(), "--data-dir", kept.toString());
        assertThat(intoDir.exit()).as(intoDir.out()).isZero();
        assertThat(kept.resolve("shard-0-of-2").resolve("CURRENT")).exists();
        assertThat(kept.resolve("shard-1-of-2").resolve("CURRENT")).exists();

        ReplayRun expect = ReplayRun.of("--journal", journal.toString(), "--expect-digest", "00");
        assertThat(expect.exit()).as(expect.out()).isEqualTo(2);
        assertThat(expect.out()).contains("--expect-digest compares one engine's digest");

        // one shard's file cut short (a crash while it was written): its last state was not recorded
        Path cut = Files.createDirectories(dir.resolve("cut")).resolve("commands.journal");
        Files.copy(shard0, cut.resolveSibling(shard0.getFileName()));
        byte[] bytes = Files.readAllBytes(shard1);
        Files.write(cut.resolveSibling(shard1.getFileName()), Arrays.copyOf(bytes, bytes.length - 30));
        ReplayRun truncated = ReplayRun.of("--journal", cut.toString());
        assertThat(truncated.exit()).as(truncated.out()).isEqualTo(1);
        assertThat(truncated.out()).contains("shard 0 of 2: replayed").contains("shard 1 of 2: replayed")
                .contains("ends in a frame cut short").contains("NOT every shard matches");

        // one shard's file damaged (a frame length no writer produces): that shard cannot be replayed
        byte[] damagedBytes = bytes.clone();
        java.nio.ByteBuffer.wrap(damagedBytes).putInt(5, Integer.MAX_VALUE); // the first frame's length
        Files.write(cut.resolveSibling(shard1.getFileName()), damagedBytes);
        ReplayRun damaged = ReplayRun.of("--journal", cut.toString());
        assertThat(damaged.exit()).as(damaged.out()).isEqualTo(1);
        assertThat(damaged.out()).contains("shard 1 of 2: cannot replay").contains("the journal is damaged")
                .contains("NOT every shard matches");

        // one shard's file missing: nothing is replayed, the error names it
        Files.delete(cut.resolveSibling(shard1.getFileName()));
        ReplayRun missing = ReplayRun.of("--journal", cut.toString());
        assertThat(missing.exit()).as(missing.out()).isEqualTo(1);
        assertThat(missing.out()).contains("commands.journal.shard-1-of-2 is missing");
    }

    private static void traffic(JsonSqs sqs, String queue, int from) throws Exception {
        for (int i = from; i < from + 10; i++) {
            sqs.send(queue, "m" + i);
        }
        JsonNode got = sqs.receive(queue, 10);
        for (int i = 0; i < got.size(); i += 2) {
            sqs.call("DeleteMessage", JsonSqs.input().put("QueueUrl", queue)
                    .put("ReceiptHandle", got.get(i).path("ReceiptHandle").asText()));
        }
        sqs.attributes(queue);
    }
}
