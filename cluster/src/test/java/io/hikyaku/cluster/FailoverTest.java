package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.hikyaku.cluster.TestCluster.bytes;
import static io.hikyaku.cluster.TestCluster.put;
import static io.hikyaku.cluster.TestCluster.text;
import static org.assertj.core.api.Assertions.assertThat;

class FailoverTest {

    @TempDir
    Path dir;

    @Test
    void closingTheLeaderElectsANewOneThatHoldsEveryAcknowledgedWriteAndTheOldNodeCatchesUp() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            String oldLeader = leader.config().nodeId();
            // a writer keeps writing while the leader goes away: every acknowledged write must survive
            ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                int i = 0;
                while (!stop.get()) {
                    String key = "a" + (i++);
                    // a put, and a delete-once-written of an earlier key (SingleDelete must never be applied twice)
                    StoreBatch b = new StoreBatch().put(Keyspace.MESSAGES, bytes(key), bytes("v"));
                    if (i % 3 == 0) {
                        b.deleteOnceWritten(Keyspace.MESSAGES, bytes("a" + (i - 3)));
                    }
                    try {
                        leader.store().write(b).get(20, TimeUnit.SECONDS);
                        acknowledged.add(key);
                    } catch (Exception refused) {
                        return; // the leader went away: the rest is unacknowledged
                    }
                }
            });
            writer.start();
            TestCluster.awaitTrue(Duration.ofSeconds(10), () -> acknowledged.size() >= 30, () -> "writes do not progress");
            long killed = System.nanoTime();
            cluster.stop(oldLeader);
            stop.set(true);
            writer.join(30_000);

            ClusterNode next = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            System.out.println("new leader " + next.config().nodeId() + " writable "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed) + " ms after the old one was closed; "
                    + acknowledged.size() + " writes acknowledged before");
            assertThat(next.config().nodeId()).isNotEqualTo(oldLeader);
            var store = cluster.innerStore(next.config().nodeId());
            for (String key : acknowledged) {
                int n = Integer.parseInt(key.substring(1));
                // a(n) with n % 3 == 0 is deleted by the batch that writes a(n + 2) (atomically with it)
                boolean deleted = n % 3 == 0 && store.get(Keyspace.MESSAGES, bytes("a" + (n + 2))) != null;
                assertThat(store.get(Keyspace.MESSAGES, bytes(key))).as(key).matches(v -> deleted ? v == null : v != null);
            }
            // writes continue on the new leader
            List<CompletableFuture<Void>> more = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                more.add(next.store().write(put("b" + i, "w")));
            }
            CompletableFuture.allOf(more.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            assertThat(text(next.store().get(Keyspace.MESSAGES, bytes("b19")))).isEqualTo("w");

            // the old node, restarted from its directories, catches up
            ClusterNode back = cluster.start(oldLeader);
            cluster.awaitConvergedAfterRejoin(Duration.ofSeconds(30));
            assertThat(text(cluster.innerStore(oldLeader).get(Keyspace.MESSAGES, bytes("b19")))).isEqualTo("w");
            assertThat(back.isReadyLeader()).isFalse();
            System.out.println("converged: " + cluster.statuses() + cluster.digests());
        }
    }

    @Test
    void aFollowerReplacedWithEmptyDisksReceivesTheWholeLog() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            for (int i = 0; i < 30; i++) {
                cluster.writeAcknowledged(put("r" + i, "v"));
            }
            String follower = cluster.running().stream().filter(n -> n != leader).findFirst().orElseThrow().config().nodeId();
            cluster.stop(follower);
            try (var files = java.nio.file.Files.walk(dir.resolve(follower))) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            cluster.writeAcknowledged(put("after", "v")); // the two others are a majority
            ClusterNode fresh = cluster.start(follower);
            cluster.awaitConvergedAfterRejoin(Duration.ofSeconds(30));
            assertThat(text(cluster.innerStore(follower).get(Keyspace.MESSAGES, bytes("after")))).isEqualTo("v");
            assertThat(fresh.stats().batchesApplied()).isGreaterThanOrEqualTo(31); // a retried write may commit twice
        }
    }

    @Test
    void aNodeStartingAfterTheOthersElectedALeaderReceivesTheLog() throws Exception {
        try (TestCluster cluster = TestCluster.create(dir, 3)) {
            cluster.start("n1");
            cluster.start("n2");
            cluster.awaitWritableLeader(Duration.ofSeconds(20));
            for (int i = 0; i < 10; i++) {
                cluster.writeAcknowledged(put("early" + i, "v"));
            }
            cluster.start("n3");
            cluster.writeAcknowledged(put("late", "v"));
            cluster.awaitConvergedAfterRejoin(Duration.ofSeconds(20));
            assertThat(text(cluster.innerStore("n3").get(Keyspace.MESSAGES, bytes("early0")))).isEqualTo("v");
        }
    }

    @Test
    void forwardedRequestsReachTheLeadersHandlerAndFollowALeaderChange() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            for (ClusterNode n : cluster.running()) {
                String id = n.config().nodeId();
                n.serveForwarded(request -> CompletableFuture.completedFuture(
                        (id + ":" + new String(request, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
            }
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            String leaderId = leader.config().nodeId();
            ClusterNode follower = cluster.running().stream().filter(n -> n != leader).findFirst().orElseThrow();
            byte[] reply = follower.forwardToLeader(bytes("hello"), Duration.ofSeconds(10)).get(15, TimeUnit.SECONDS);
            assertThat(text(reply)).isEqualTo(leaderId + ":hello");

            // a long poll: the leader answers late, the forwarding waits for it
            leader.serveForwarded(request -> CompletableFuture.supplyAsync(() -> bytes("late"),
                    CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS)));
            long start = System.nanoTime();
            assertThat(text(follower.forwardToLeader(bytes("poll"), Duration.ofSeconds(25)).get(30, TimeUnit.SECONDS))).isEqualTo("late");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(2900);

            cluster.stop(leaderId);
            ClusterNode next = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            ClusterNode other = cluster.running().stream().filter(n -> n != next).findFirst().orElseThrow();
            byte[] again = other.forwardToLeader(bytes("again"), Duration.ofSeconds(20)).get(25, TimeUnit.SECONDS);
            assertThat(text(again)).isEqualTo(next.config().nodeId() + ":again");
            // the leader can forward to itself too
            assertThat(text(next.forwardToLeader(bytes("self"), Duration.ofSeconds(10)).get(15, TimeUnit.SECONDS)))
                    .isEqualTo(next.config().nodeId() + ":self");
        }
    }
}
