package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.cluster.TestCluster.bytes;
import static io.hikyaku.cluster.TestCluster.put;
import static org.assertj.core.api.Assertions.assertThat;

class GroupCommitTest {

    @TempDir
    Path dir;

    @Test
    void concurrentWritersShareEntries() throws Exception {
        int writers = Integer.getInteger("gc.writers", 32);
        int perWriter = Integer.getInteger("gc.perWriter", 60);
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            ClusterStats before = leader.stats();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            long start = System.nanoTime();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < perWriter; i++) {
                            // each writer waits for its batch before the next, like a request thread
                            leader.store().write(put("w" + writer + "." + i, "x".repeat(200))).get(20, TimeUnit.SECONDS);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(120_000);
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(failures).isEmpty();
            ClusterStats after = leader.stats();
            long entries = after.entriesProposed() - before.entriesProposed();
            long batches = after.batchesProposed() - before.batchesProposed();
            double perEntry = (double) batches / entries;
            System.out.printf("group commit: %d batches from %d writers in %d entries: %.1f batches per entry (max %d), %d ms, %.0f batches/s%n",
                    batches, writers, entries, perEntry, after.maxBatchesPerEntry(), elapsedMs, batches * 1000.0 / elapsedMs);
            assertThat(batches).isEqualTo((long) writers * perWriter);
            // adaptive pacing: an entry carries what was written during the previous one's round trip
            // (about 17 of the 32 here under load); eager pipelining of 4 entries gave about 32 / 4
            assertThat(perEntry).isGreaterThan(10.0);
            // where the time went (CLUSTER.md "Where the time goes"): Hikyaku's stages on the leader,
            // then Ratis' own timers of every node (log flush and fsync, AppendEntries on a follower)
            // a stage is counted just after the write's future completes: the last writers may return
            // from get() a moment before their "write" is counted, so wait (briefly) for the counts to settle
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (writeCount(after) < batches && System.nanoTime() < settle) {
                Thread.sleep(10);
                after = leader.stats();
            }
            java.util.Map<String, ReplicationStages.Totals> stages = new java.util.LinkedHashMap<>();
            for (ReplicationStages.Totals t : after.stages()) {
                stages.put(t.stage(), t);
                System.out.printf("stage %-7s n=%6d mean=%8.3f ms max=%8.3f ms%n", t.stage(), t.count(), t.meanMillis(), t.maxNanos() / 1e6);
            }
            for (ClusterNode n : cluster.running()) {
                for (RatisTimers.Reading r : n.ratisTimers()) {
                    if (r.count() > 0) {
                        System.out.printf("ratis %s %-60s n=%6d mean=%8.3f ms p99=%8.3f ms%n", n.config().nodeId(), r.name(), r.count(), r.meanMillis(), r.p99Millis());
                    }
                }
            }
            // every acknowledged batch passed every stage once; every entry of the leader was committed and applied
            assertThat(stages.get("write").count()).isGreaterThanOrEqualTo(batches);
            assertThat(stages.get("queued").count()).isEqualTo(stages.get("write").count());
            assertThat(stages.get("commit").count()).isEqualTo(after.entriesProposed());
            assertThat(stages.get("submit").count()).isEqualTo(after.entriesProposed());
            cluster.awaitConverged(Duration.ofSeconds(20));
            for (ClusterNode n : cluster.running()) {
                assertThat(cluster.innerStore(n.config().nodeId()).get(Keyspace.MESSAGES, bytes("w" + (writers - 1) + "." + (perWriter - 1)))).isNotNull();
            }
        }
    }

    private static long writeCount(ClusterStats stats) {
        for (ReplicationStages.Totals t : stats.stages()) {
            if (t.stage().equals("write")) {
                return t.count();
            }
        }
        return 0;
    }
}
