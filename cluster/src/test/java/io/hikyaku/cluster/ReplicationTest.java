package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.cluster.TestCluster.bytes;
import static io.hikyaku.cluster.TestCluster.put;
import static io.hikyaku.cluster.TestCluster.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicationTest {

    @TempDir
    Path dir;

    @Test
    void aWriteOnTheLeaderReachesEveryFollowersStoreAfterCommit() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                writes.add(leader.store().write(put("k" + i, "v" + i)));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            // acknowledged = committed and applied on the leader's own store
            assertThat(text(cluster.innerStore(leader.config().nodeId()).get(Keyspace.MESSAGES, bytes("k49")))).isEqualTo("v49");
            cluster.awaitConverged(Duration.ofSeconds(10));
            for (ClusterNode n : cluster.running()) {
                assertThat(text(cluster.innerStore(n.config().nodeId()).get(Keyspace.MESSAGES, bytes("k7")))).isEqualTo("v7");
            }
            // followers refuse writes: only the ready leader's store accepts them
            ClusterNode follower = cluster.running().stream().filter(n -> n != leader).findFirst().orElseThrow();
            assertThat(follower.store().resume()).isFalse();
            assertThatThrownBy(() -> follower.store().write(put("x", "y")).join()).hasCauseInstanceOf(StoreException.class);
        }
    }

    @Test
    void aClusterOfOneNodeLeadsItselfAndTellsItsListeners() throws Exception {
        try (TestCluster cluster = TestCluster.create(dir, 1)) {
            java.util.concurrent.atomic.AtomicInteger changes = new java.util.concurrent.atomic.AtomicInteger();
            ClusterNode solo = cluster.start("n1");
            solo.onChange(changes::incrementAndGet);
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            leader.store().write(put("solo", "1")).get(10, TimeUnit.SECONDS);
            assertThat(text(cluster.innerStore("n1").get(Keyspace.MESSAGES, bytes("solo")))).isEqualTo("1");
            ClusterStatus status = leader.status();
            assertThat(status.nodeId()).isEqualTo("n1");
            assertThat(status.groups()).singleElement().satisfies(g -> {
                assertThat(g.role()).isEqualTo(ClusterStatus.Role.LEADER);
                assertThat(g.leader()).isEqualTo("n1");
            });
            TestCluster.awaitTrue(Duration.ofSeconds(5), () -> changes.get() > 0, () -> "no change reported");
        }
    }

    @Test
    void withoutAMajorityAWriteNeverCompletesAndThenFailsWithNothingApplied() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            String leaderId = leader.config().nodeId();
            leader.store().write(put("before", "1")).get(10, TimeUnit.SECONDS);
            long stopping = System.nanoTime();
            cluster.running().stream().filter(n -> n != leader).map(n -> CompletableFuture.runAsync(() -> cluster.stop(n.config().nodeId())))
                    .toList().forEach(CompletableFuture::join);
            System.out.println("followers stopped in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping) + " ms");
            CompletableFuture<Void> write = leader.store().write(put("lonely", "1"));
            if (!write.isDone()) {
                // still leading (it steps down about an election timeout after the last answer): the
                // leader's engine sees its own pending write at once
                assertThat(text(leader.store().get(Keyspace.MESSAGES, bytes("lonely")))).isEqualTo("1");
            }
            // it is never acknowledged and never reaches the leader's own store; it fails once the leader
            // steps down for want of a majority (about an election timeout) or the proposal times out
            long start = System.nanoTime();
            while (!write.isDone() && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20)) {
                assertThat(cluster.innerStore(leaderId).get(Keyspace.MESSAGES, bytes("lonely"))).isNull();
                Thread.sleep(10);
            }
            long failedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("write without a majority failed after " + failedAfterMs + " ms");
            assertThatThrownBy(() -> write.get(1, TimeUnit.SECONDS)).hasCauseInstanceOf(StoreException.class);
            assertThat(leader.store().get(Keyspace.MESSAGES, bytes("lonely"))).isNull();
            assertThat(cluster.innerStore(leaderId).get(Keyspace.MESSAGES, bytes("lonely"))).isNull();
            assertThat(text(leader.store().get(Keyspace.MESSAGES, bytes("before")))).isEqualTo("1");
            assertThat(leader.store().resume()).isFalse();
        }
    }
}
