package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import org.apache.ratis.util.SizeInBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static io.hikyaku.cluster.TestCluster.bytes;
import static io.hikyaku.cluster.TestCluster.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshots every 16 entries, 1 MB log segments: the log is purged behind the snapshots, a follower
 * that was down meanwhile catches up by installing the leader's snapshot (its whole store replaced),
 * and a restart loads from the node's own snapshot and store plus the log after it.
 */
class SnapshotInstallTest {

    @TempDir
    Path dir;

    @Test
    void theLogIsPurgedBehindSnapshotsAndALateFollowerInstallsOne() throws Exception {
        try (TestCluster cluster = TestCluster.create(dir, 3)) {
            cluster.retention = new RaftSettings.LogRetention(16, SizeInBytes.valueOf("1MB"));
            for (ClusterConfig.Peer p : cluster.peers) {
                cluster.start(p.id());
            }
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(30));
            String late = cluster.running().stream().filter(n -> n != leader).findFirst().orElseThrow().config().nodeId();
            writeInParallel(cluster, "early", 40);
            cluster.awaitConverged(Duration.ofSeconds(30));
            long lateApplied = cluster.node(late).appliedIndex();
            cluster.stop(late);

            // about 4 MB while the late node is down: many snapshots, segments purged
            writeInParallel(cluster, "while-down", 480);
            ClusterNode now = cluster.awaitWritableLeader(Duration.ofSeconds(30));
            TestCluster.awaitTrue(Duration.ofSeconds(60), () -> now.logStartIndex() > lateApplied + 1,
                    () -> "no purge past " + lateApplied + ": log start " + now.logStartIndex() + ", snapshot " + now.snapshotIndex());
            assertThat(now.snapshotsTaken()).isGreaterThan(0);
            long logBytes = logBytes(cluster.root.resolve(now.config().nodeId()).resolve("raft"));
            System.out.println("leader log on disk: " + logBytes + " bytes, start index " + now.logStartIndex()
                    + ", snapshot " + now.snapshotIndex());
            assertThat(logBytes).isLessThan(3L << 20); // 4 MB written; whole closed segments purged

            ClusterNode rejoined = cluster.start(late);
            cluster.awaitConvergedAfterRejoin(Duration.ofSeconds(60));
            assertThat(rejoined.snapshotsInstalled()).isGreaterThanOrEqualTo(1);
            assertThat(text(cluster.innerStore(late).get(Keyspace.MESSAGES, bytes("early.0.0")))).startsWith("v");
            assertThat(text(cluster.innerStore(late).get(Keyspace.MESSAGES, bytes("while-down.7.59")))).startsWith("v");

            // it goes on replicating on the installed store, and a restart loads it again
            writeInParallel(cluster, "after", 16);
            cluster.awaitConverged(Duration.ofSeconds(30));
            cluster.stop(late);
            writeInParallel(cluster, "restart", 8);
            cluster.start(late);
            cluster.awaitConvergedAfterRejoin(Duration.ofSeconds(30));
            assertThat(text(cluster.innerStore(late).get(Keyspace.MESSAGES, bytes("restart.7.0")))).startsWith("v");
        }
    }

    /** {@code perWriter} acknowledged 8 KiB writes from each of 8 writers. */
    private static void writeInParallel(TestCluster cluster, String prefix, int total) throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < total / writers; i++) {
                        cluster.writeAcknowledged(new StoreBatch().put(Keyspace.MESSAGES,
                                bytes(prefix + "." + writer + "." + i), bytes("v" + "x".repeat(8 << 10))));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long logBytes(Path raftDir) throws Exception {
        try (Stream<Path> files = Files.walk(raftDir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("log_")).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
