package io.hikyaku.clustertests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader is SIGKILLed three times under load (two senders and a receiver, spread over every node;
 * snapshots every 16 entries, so the restarted nodes come back by log or by snapshot), each killed
 * node restarted on its data before the next kill. No acknowledged send is lost, no acknowledged
 * delete comes back, nothing nobody sent arrives.
 */
class ClusterLeaderChangesTest {

    private static final String QUEUE = "leader-changes";
    private static final String QUEUE_PATH = "/000000000000/" + QUEUE;
    private static final int KILLS = 3;

    @TempDir
    Path dir;

    @Test
    void killTheLeaderThreeTimesUnderLoadNothingAcknowledgedIsLostOrResurrected() throws Exception {
        try (ProcessCluster cluster = new ProcessCluster(dir)) {
            for (int i = 1; i <= 3; i++) {
                cluster.add("n" + i, List.of("-Dhikyaku.cluster.snapshotEvery=16", "-Dhikyaku.cluster.logSegmentSize=1MB"));
            }
            String peers = ProcessCluster.peers(cluster.nodes);
            for (NodeProcess n : cluster.nodes) {
                n.start(cluster.jar, peers);
            }
            cluster.await("every node healthy", 90, () -> cluster.nodes.stream().allMatch(NodeProcess::healthy));
            cluster.await("a leader every node agrees on", 60, () -> cluster.agreedLeader() != null);
            cluster.createQueue(QUEUE, 5);

            ClusterLedger ledger = new ClusterLedger();
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicInteger failed = new AtomicInteger();
            List<Thread> load = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                int sender = s;
                load.add(new Thread(() -> {
                    int seq = 0;
                    int attempt = 0;
                    int node = sender;
                    while (loading.get()) {
                        NodeProcess via = cluster.nodes.get(node % 3);
                        String body = "s" + sender + "-" + seq + "-a" + attempt;
                        ledger.attempt(body);
                        try {
                            ledger.sendAcked(body, cluster.client(via).sendMessage(b -> b.queueUrl(via.endpoint() + QUEUE_PATH)
                                    .messageBody(body)).messageId());
                            seq++;
                            attempt = 0;
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                            attempt++;
                            ProcessCluster.sleep(50);
                        }
                        node++;
                    }
                }, "sender-" + s));
            }
            load.add(new Thread(() -> {
                int turn = 0;
                while (loading.get()) {
                    NodeProcess via = cluster.nodes.get(turn++ % 3);
                    if (!ClusterFailoverTest.receiveAndDelete(cluster.client(via), via.endpoint() + QUEUE_PATH, ledger)) {
                        ProcessCluster.sleep(50);
                    }
                }
            }, "receiver"));
            load.forEach(Thread::start);
            try {
                for (int k = 1; k <= KILLS; k++) {
                    int before = ledger.ackedSends.size();
                    cluster.await("sends acknowledged before kill " + k, 60, () -> ledger.ackedSends.size() > before + 30);
                    NodeProcess[] leader = new NodeProcess[1];
                    cluster.await("an agreed leader before kill " + k, 60, () -> (leader[0] = cluster.agreedLeader()) != null);
                    NodeProcess victim = leader[0];
                    long killedAt = System.nanoTime();
                    victim.kill();
                    int atKill = ledger.ackedSends.size();
                    cluster.await("a send acknowledged after kill " + k, 60, () -> ledger.ackedSends.size() > atKill + 5);
                    System.out.println("[leader-changes] kill " + k + " of leader " + victim.id + ": sends acknowledged again within "
                            + (System.nanoTime() - killedAt) / 1_000_000 + " ms");
                    victim.restart(cluster.jar);
                    cluster.awaitCaughtUp(victim, 120);
                }
            } finally {
                loading.set(false);
                for (Thread t : load) {
                    t.join(30_000);
                }
            }
            cluster.drainAndCheck("leader-changes", QUEUE_PATH, cluster.nodes, ledger, failed.get());
        }
    }
}
