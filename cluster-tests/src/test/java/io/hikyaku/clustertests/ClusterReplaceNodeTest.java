package io.hikyaku.clustertests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replacing a node under a light load, with the commands docs/operations.md gives: a new node n4 is
 * started with the new members, {@code hikyaku cluster --cluster n1,n2,n3 --set-members n1,n2,n4}
 * commits the change (n4 catches up first: snapshots every 16 entries, so by snapshot install), n3 is
 * stopped. Then n1 is killed too: n2 and n4 are a majority of the new members only, and they keep
 * serving. No acknowledged send is lost, no acknowledged delete comes back.
 */
class ClusterReplaceNodeTest {

    private static final String QUEUE = "replace";
    private static final String QUEUE_PATH = "/000000000000/" + QUEUE;

    @TempDir
    Path dir;

    @Test
    void replaceN3ByN4UnderLoadNothingAcknowledgedIsLost() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir)) {
            for (int i = 1; i <= 4; i++) {
                cluster.add("n" + i, ProcessCluster.SMALL_SNAPSHOTS);
            }
            NodeProcess n1 = cluster.node("n1");
            NodeProcess n2 = cluster.node("n2");
            NodeProcess n3 = cluster.node("n3");
            NodeProcess n4 = cluster.node("n4");
            String oldPeers = ProcessCluster.peers(List.of(n1, n2, n3));
            String newPeers = ProcessCluster.peers(List.of(n1, n2, n4));
            for (NodeProcess n : List.of(n1, n2, n3)) {
                n.start(cluster.jar, oldPeers);
            }
            cluster.await("n1, n2, n3 healthy", 90, () -> n1.healthy() && n2.healthy() && n3.healthy());
            cluster.await("a leader every node agrees on", 60, () -> cluster.agreedLeader() != null);
            cluster.createQueue(QUEUE, 5);

            ClusterLedger ledger = new ClusterLedger();
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicInteger failed = new AtomicInteger();
            List<NodeProcess> serving = new java.util.concurrent.CopyOnWriteArrayList<>(List.of(n1, n2));
            List<Thread> load = new ArrayList<>();
            load.add(new Thread(() -> {
                int seq = 0;
                int attempt = 0;
                while (loading.get()) {
                    NodeProcess via = serving.get((seq + attempt) % serving.size());
                    String body = "s-" + seq + "-a" + attempt + "-" + "y".repeat(2_000);
                    ledger.attempt(body);
                    try {
                        ledger.sendAcked(body, cluster.client(via).sendMessage(b -> b.queueUrl(via.endpoint() + QUEUE_PATH)
                                .messageBody(body)).messageId());
                        seq++;
                        attempt = 0;
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        attempt++;
                    }
                    ProcessCluster.sleep(20);
                }
            }, "sender"));
            load.add(new Thread(() -> {
                int turn = 0;
                while (loading.get()) {
                    NodeProcess via = serving.get(turn++ % serving.size());
                    ClusterFailoverTest.receiveAndDelete(cluster.client(via), via.endpoint() + QUEUE_PATH, ledger);
                    ProcessCluster.sleep(200); // receive slower than send: a backlog builds, the snapshots carry it
                }
            }, "receiver"));
            load.forEach(Thread::start);
            try {
                cluster.await("some load acknowledged", 60, () -> ledger.ackedSends.size() > 100);
                n4.start(cluster.jar, newPeers);
                cluster.await("n4 answers", 90, n4::healthy);
                long changeStart = System.nanoTime();
                String out = NodeProcess.cli(cluster.jar, "cluster", "--cluster", oldPeers, "--set-members", newPeers,
                        "--timeout-seconds", "120");
                System.out.println("[replace] " + out.strip() + "; the command took "
                        + (System.nanoTime() - changeStart) / 1_000_000 + " ms");
                n3.kill();
                cluster.awaitCaughtUp(n4, 120);
                System.out.println("[replace] n4 caught up: applied " + n4.appliedIndex() + ", log starts at " + n4.logStartIndex());
                serving.add(n4);
                cluster.await("sends acknowledged after the change", 60, () -> ledger.ackedSends.size() > 300);

                // n2 and n4 are a majority of n1, n2, n4 (not of n1, n2, n3): they keep serving without n1
                n1.kill();
                serving.remove(n1);
                int before = ledger.ackedSends.size();
                cluster.await("n2 and n4 elect a leader without n1 and n3", 60,
                        () -> cluster.agreedLeader() != null && cluster.agreedLeader() != n1);
                cluster.await("sends acknowledged by n2 and n4 alone", 60, () -> ledger.ackedSends.size() > before + 20);
            } finally {
                loading.set(false);
                for (Thread t : load) {
                    t.join(30_000);
                }
            }
            cluster.drainAndCheck("replace", QUEUE_PATH, List.of(n2, n4), ledger, failed.get());
        }
    }
}
