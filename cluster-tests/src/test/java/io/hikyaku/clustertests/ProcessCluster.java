package io.hikyaku.clustertests;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.services.sqs.SqsClient;

/** Server processes on loopback that form a cluster, with the waits and the drain the cluster tests share. */
final class ProcessCluster implements AutoCloseable {

    /** A snapshot every 16 applied entries and 1 MB log segments: purges and installs happen within a test. */
    static final List<String> SMALL_SNAPSHOTS = List.of(
            "-Dhikyaku.cluster.snapshotEvery=16", "-Dhikyaku.cluster.logSegmentSize=1MB");

    final Path jar = NodeProcess.builtJar();
    final Path dir;
    final List<NodeProcess> nodes = new ArrayList<>();
    final Map<String, SqsClient> clients = new LinkedHashMap<>();

    ProcessCluster(Path dir) {
        this.dir = dir;
    }

    /** A node (not started) with a free HTTP and Raft port. */
    NodeProcess add(String id, List<String> jvmFlags) throws IOException {
        List<Integer> ports = NodeProcess.freePorts(2);
        NodeProcess n = new NodeProcess(id, ports.get(0), ports.get(1), dir.resolve(id),
                Path.of(System.getProperty("hikyaku.cluster.logs", "target/node-logs")).resolve(id + ".log"));
        n.jvmFlags.addAll(jvmFlags);
        nodes.add(n);
        return n;
    }

    NodeProcess node(String id) {
        return nodes.stream().filter(n -> n.id.equals(id)).findFirst().orElseThrow();
    }

    SqsClient client(NodeProcess n) {
        return clients.computeIfAbsent(n.id, id -> ClusterFailoverTest.client(n.endpoint()));
    }

    static String peers(List<NodeProcess> members) {
        StringBuilder b = new StringBuilder();
        for (NodeProcess n : members) {
            b.append(b.length() == 0 ? "" : ",").append(n.id).append("=127.0.0.1:").append(n.raftPort);
        }
        return b.toString();
    }

    void await(String what, int seconds, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what + logs(nodes));
            }
            Thread.sleep(100);
        }
    }

    /** The live node every live node names as leader and that says it leads, or null. */
    NodeProcess agreedLeader() {
        return agreedLeader(nodes);
    }

    /** Among {@code nodes}: the live node every live one names as leader and that says it leads, or null. */
    static NodeProcess agreedLeader(List<NodeProcess> nodes) {
        String named = null;
        for (NodeProcess n : nodes) {
            if (!n.alive()) {
                continue;
            }
            String l = n.leader();
            if (l == null || (named != null && !named.equals(l))) {
                return null;
            }
            named = l;
        }
        for (NodeProcess n : nodes) {
            if (n.id.equals(named) && n.alive() && "LEADER".equals(n.role())) {
                return n;
            }
        }
        return null;
    }

    /** Each node's liveness, health and log tail, for a failure's message. */
    static String logs(List<NodeProcess> nodes) {
        StringBuilder logs = new StringBuilder();
        for (NodeProcess n : nodes) {
            logs.append("\n--- ").append(n.id).append(" (alive ").append(n.alive()).append(", health ")
                    .append(n.health()).append("):\n").append(n.logTail());
        }
        return logs.toString();
    }

    /** Waits until {@code n} follows a leader and has applied at least what that leader has. */
    void awaitCaughtUp(NodeProcess n, int seconds) throws InterruptedException {
        await(n.id + " follows a leader", seconds, () -> n.healthy() && n.leader() != null && agreedLeader() != null);
        NodeProcess leader = agreedLeader();
        long target = leader == null ? Long.MAX_VALUE : leader.appliedIndex();
        await(n.id + " applied the leader's index " + target, seconds, () -> n.appliedIndex() >= target);
    }

    /** CreateQueue through any live node until one answers. */
    void createQueue(String name, int visibilitySeconds) throws InterruptedException {
        await("CreateQueue " + name, 60, () -> {
            for (NodeProcess n : nodes) {
                if (!n.alive()) {
                    continue;
                }
                try {
                    client(n).createQueue(b -> b.queueName(name).attributes(Map.of(
                            software.amazon.awssdk.services.sqs.model.QueueAttributeName.VISIBILITY_TIMEOUT,
                            Integer.toString(visibilitySeconds))));
                    return true;
                } catch (RuntimeException e) {
                    // no leader yet: the next node, or the next round
                }
            }
            return false;
        });
    }

    /** Receives and deletes through the live {@code via} nodes in turn until every acknowledged send is received. */
    void drain(String queuePath, List<NodeProcess> via, ClusterLedger ledger, int seconds) throws InterruptedException {
        int[] turn = {0};
        await("every acknowledged send received (lost so far: " + ledger.lost().size() + ")", seconds, () -> {
            NodeProcess target = via.get(turn[0]++ % via.size());
            ClusterFailoverTest.receiveAndDelete(client(target), target.endpoint() + queuePath, ledger);
            return ledger.lost().isEmpty();
        });
    }

    @Override
    public void close() throws InterruptedException {
        clients.values().forEach(SqsClient::close);
        for (NodeProcess n : nodes) {
            n.close(); // SIGKILL by PID
        }
    }

    /**
     * Drains {@code queuePath} through {@code via}, then a late round of receives (an acknowledged delete that
     * came back shows there), prints the counts and asserts the ledger: nothing acknowledged lost, nothing
     * unexpected, no acknowledged delete back.
     */
    void drainAndCheck(String label, String queuePath, List<NodeProcess> via, ClusterLedger ledger, long failedAttempts)
            throws InterruptedException {
        drain(queuePath, via, ledger, 120);
        for (int i = 0; i < 12; i++) {
            NodeProcess n = via.get(i % via.size());
            ClusterFailoverTest.receiveAndDelete(client(n), n.endpoint() + queuePath, ledger);
        }
        System.out.println("[" + label + "] sends acknowledged " + ledger.ackedSends.size() + ", failed attempts "
                + failedAttempts + ", received " + ledger.received.size() + " (recovered " + ledger.recovered()
                + "), deletes acknowledged " + ledger.ackedDeletes.size());
        org.assertj.core.api.Assertions.assertThat(ledger.lost()).as("acknowledged sends never received").isEmpty();
        org.assertj.core.api.Assertions.assertThat(ledger.unexpected()).as("received messages nobody sent").isEmpty();
        org.assertj.core.api.Assertions.assertThat(ledger.resurrected()).as("acknowledged deletes that came back").isEmpty();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
