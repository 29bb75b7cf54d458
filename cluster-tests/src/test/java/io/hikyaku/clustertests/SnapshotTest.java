package io.hikyaku.clustertests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three server processes that snapshot every 16 applied entries with 1 MB log segments. A follower is
 * SIGKILLed, about 4 MB of messages are sent, the log is purged behind the snapshots (and stays small
 * on disk), the follower restarts, installs the leader's snapshot (its store replaced), catches up,
 * takes over the leadership ({@code hikyaku cluster --transfer-leader}) and serves every acknowledged
 * message from its installed store.
 */
class SnapshotTest {

    private static final String QUEUE = "snapshots";
    private static final String QUEUE_PATH = "/000000000000/" + QUEUE;

    @TempDir
    Path dir;

    @Test
    void aFollowerBackAfterThePurgeInstallsTheSnapshotAndServesTheData() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir)) {
            for (int i = 1; i <= 3; i++) {
                cluster.add("n" + i, ProcessCluster.SMALL_SNAPSHOTS);
            }
            String peers = ProcessCluster.peers(cluster.nodes);
            for (NodeProcess n : cluster.nodes) {
                n.start(cluster.jar, peers);
            }
            cluster.await("every node healthy", 90, () -> cluster.nodes.stream().allMatch(NodeProcess::healthy));
            cluster.await("a leader every node agrees on", 60, () -> cluster.agreedLeader() != null);
            cluster.createQueue(QUEUE, 5);
            NodeProcess leader = cluster.agreedLeader();
            NodeProcess late = cluster.nodes.stream().filter(n -> n != leader).findFirst().orElseThrow();
            cluster.awaitCaughtUp(late, 60);
            long lateApplied = late.appliedIndex();
            late.kill();
            System.out.println("[snapshot] SIGKILL " + late.id + " at applied index " + lateApplied);

            ClusterLedger ledger = new ClusterLedger();
            String filler = "x".repeat(20_000);
            int acked = 0;
            for (int i = 0; acked < 200; i++) {
                NodeProcess via = cluster.nodes.stream().filter(NodeProcess::alive).toList().get(i % 2);
                String body = "m" + i + "-" + filler;
                ledger.attempt(body);
                try {
                    ledger.sendAcked(body, cluster.client(via).sendMessage(b -> b.queueUrl(via.endpoint() + QUEUE_PATH)
                            .messageBody(body)).messageId());
                    acked++;
                } catch (RuntimeException e) {
                    Thread.sleep(100); // a leader change on the loaded machine: a new body, tried again
                }
            }
            NodeProcess leading = cluster.agreedLeader();
            cluster.await("the leader's log purged past " + late.id + "'s index " + lateApplied, 60,
                    () -> cluster.agreedLeader() != null && cluster.agreedLeader().logStartIndex() > lateApplied + 1);
            long logBytes = cluster.agreedLeader().logBytes();
            System.out.println("[snapshot] " + acked + " sends of 20 kB acknowledged; leader " + leading.id + " log start "
                    + cluster.agreedLeader().logStartIndex() + ", " + logBytes + " bytes of log on disk");
            assertThat(logBytes).as("the leader's log on disk after 4 MB sent").isLessThan(3L << 20);

            long restarted = System.nanoTime();
            late.restart(cluster.jar);
            cluster.awaitCaughtUp(late, 120);
            System.out.println("[snapshot] " + late.id + " caught up in " + (System.nanoTime() - restarted) / 1_000_000
                    + " ms; its log starts at " + late.logStartIndex());
            assertThat(late.logStartIndex()).as(late.id + "'s log starts after the installed snapshot").isGreaterThan(lateApplied + 1);

            // the late node leads: every receive below is answered by its engine over the installed store
            cluster.await(late.id + " takes over the leadership", 90, () -> {
                try {
                    NodeProcess.cli(cluster.jar, "cluster", "--cluster", peers, "--transfer-leader", late.id,
                            "--timeout-seconds", "20");
                } catch (AssertionError | java.io.IOException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                return true;
            });
            cluster.await(late.id + " is the agreed leader", 60, () -> cluster.agreedLeader() == late);
            cluster.drain(QUEUE_PATH, List.of(late), ledger, 120);
            assertThat(ledger.lost()).as("acknowledged sends never received").isEmpty();
            assertThat(ledger.unexpected()).as("received messages nobody sent").isEmpty();
        }
    }
}
