package io.hikyaku.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.servicelog.StoreServiceLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service log over the replicated store (what SNS, KMS, the Scheduler and alarms use in cluster mode): records
 * appended on the leader are on every replica, a new leader replays all of them and continues after the last, and
 * a node that does not lead cannot append.
 */
class ServiceLogReplicationTest {

    @TempDir
    Path dir;

    private static List<String> texts(List<byte[]> records) {
        return records.stream().map(r -> new String(r, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aNewLeaderReplaysEveryAcknowledgedRecordAndContinuesTheLog() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            StoreServiceLog log = new StoreServiceLog(leader.store(), "sns", 10_000);
            assertThat(log.replay()).isEmpty();
            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                log.append(("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8)); // returns once a majority has it
                acknowledged.add("{\"n\":" + i + "}");
            }
            log.appendAll(List.of("{\"fire\":1}".getBytes(StandardCharsets.UTF_8), "{\"fire\":2}".getBytes(StandardCharsets.UTF_8)));
            acknowledged.addAll(List.of("{\"fire\":1}", "{\"fire\":2}"));
            cluster.awaitConverged(Duration.ofSeconds(20));
            for (ClusterNode n : cluster.running()) { // every replica's own store holds the records, in order
                assertThat(texts(new StoreServiceLog(cluster.innerStore(n.config().nodeId()), "sns", 1000).replay()))
                        .as(n.config().nodeId()).containsExactlyElementsOf(acknowledged);
            }
            ClusterNode follower = cluster.running().stream().filter(n -> n != leader).findFirst().orElseThrow();
            StoreServiceLog onFollower = new StoreServiceLog(follower.store(), "sns", 2000);
            onFollower.replay();
            assertThatThrownBy(() -> onFollower.append("{\"lost\":1}".getBytes(StandardCharsets.UTF_8)))
                    .as("a node that does not lead writes no record").isInstanceOf(IOException.class);

            String old = leader.config().nodeId();
            cluster.stop(old);
            ClusterNode next = cluster.awaitWritableLeader(Duration.ofSeconds(30));
            assertThat(next.config().nodeId()).isNotEqualTo(old);
            StoreServiceLog reloaded = new StoreServiceLog(next.store(), "sns", 10_000);
            assertThat(texts(reloaded.replay())).containsExactlyElementsOf(acknowledged);
            reloaded.append("{\"after\":1}".getBytes(StandardCharsets.UTF_8));
            acknowledged.add("{\"after\":1}");
            assertThat(texts(new StoreServiceLog(next.store(), "sns", 1000).replay())).containsExactlyElementsOf(acknowledged);
        }
    }
}
