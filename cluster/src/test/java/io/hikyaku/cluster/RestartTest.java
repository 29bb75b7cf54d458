package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.store.rocksdb.RocksDbStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.cluster.TestCluster.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class RestartTest {

    @TempDir
    Path dir;

    /** Puts k(from..to) and, in the same batches, removes earlier keys once-written (RocksDB SingleDelete). */
    private static void writeRange(ClusterNode leader, int from, int to) throws Exception {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = from; i < to; i++) {
            StoreBatch b = new StoreBatch().put(Keyspace.MESSAGES, bytes("k" + i), bytes("v" + i))
                    .put(Keyspace.MESSAGE_STATE, bytes("counter"), bytes(Integer.toString(i)));
            if (i % 2 == 1) {
                b.deleteOnceWritten(Keyspace.MESSAGES, bytes("k" + (i - 1)));
            }
            writes.add(leader.store().write(b));
            if (i % 5 == 0) {
                CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            }
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
    }

    private static long persistedIndex(RocksDbStore store) {
        byte[] v = store.get(Keyspace.META, ReplicatedStore.APPLIED_KEY);
        return ByteBuffer.wrap(v, 9, 8).getLong();
    }

    @Test
    void aStoreBehindItsLogIsReplayedFromItsAppliedIndexWithoutGapOrDoubleApply() throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            writeRange(leader, 0, 40);
            cluster.awaitConverged(Duration.ofSeconds(10));
            String follower = cluster.running().stream().filter(n -> n != leader).findFirst().orElseThrow().config().nodeId();
            // the follower's store as it was here: as if RocksDB lost its unsynced tail later (Durability.NONE)
            Path older = dir.resolve("older-store");
            RocksDbStore followerStore = (RocksDbStore) cluster.innerStore(follower);
            followerStore.checkpoint(older);
            long olderIndex;
            try (RocksDbStore copy = RocksDbStore.open(older)) {
                olderIndex = persistedIndex(copy);
            }
            long leaderAppliedBefore = leader.stats().entriesApplied();
            writeRange(leader, 40, 80);
            cluster.awaitConverged(Duration.ofSeconds(10));
            // entries that carried batches (the log holds Ratis' own metadata entries between them)
            long batchEntries = leader.stats().entriesApplied() - leaderAppliedBefore;
            long finalIndex = persistedIndex(followerStore);
            String digest = TestCluster.digest(cluster.innerStore(leader.config().nodeId()));
            assertThat(finalIndex).isGreaterThan(olderIndex);

            cluster.stop(follower);
            Path storeDir = cluster.storeDir(follower);
            try (var files = Files.walk(storeDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            Files.move(older, storeDir);
            ClusterNode restarted = cluster.start(follower);
            cluster.awaitConverged(Duration.ofSeconds(20));
            assertThat(TestCluster.digest(cluster.innerStore(follower))).isEqualTo(digest);
            // exactly the entries after the store's applied index were applied: none twice, none skipped
            System.out.println("replayed " + restarted.stats().entriesApplied() + " entries after index " + olderIndex
                    + " up to " + finalIndex + "; the leader applied " + batchEntries + " in that range");
            assertThat(restarted.stats().entriesApplied()).isEqualTo(batchEntries);
            assertThat(persistedIndex((RocksDbStore) cluster.innerStore(follower))).isEqualTo(finalIndex);
        }
    }

    @Test
    void aWholeClusterRestartAppliesNothingTwiceAndGoesOn() throws Exception {
        String digest;
        long index;
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            writeRange(leader, 0, 30);
            cluster.awaitConverged(Duration.ofSeconds(10));
            digest = TestCluster.digest(cluster.innerStore(leader.config().nodeId()));
            index = persistedIndex((RocksDbStore) cluster.innerStore(leader.config().nodeId()));
        }
        try (TestCluster cluster = TestCluster.restart(dir)) {
            ClusterNode leader = cluster.awaitWritableLeader(Duration.ofSeconds(20));
            cluster.awaitConverged(Duration.ofSeconds(10));
            for (ClusterNode n : cluster.running()) {
                // the stores held every applied entry: the log was replayed from there, not from the start
                assertThat(n.stats().entriesApplied()).as(n.config().nodeId()).isZero();
                assertThat(TestCluster.digest(cluster.innerStore(n.config().nodeId()))).isEqualTo(digest);
                assertThat(persistedIndex((RocksDbStore) cluster.innerStore(n.config().nodeId()))).isEqualTo(index);
            }
            writeRange(leader, 30, 40);
            cluster.awaitConverged(Duration.ofSeconds(10));
            assertThat(TestCluster.text(leader.store().get(Keyspace.MESSAGES, bytes("k39")))).isEqualTo("v39");
            assertThat(leader.store().get(Keyspace.MESSAGES, bytes("k38"))).isNull();
        }
    }
}
