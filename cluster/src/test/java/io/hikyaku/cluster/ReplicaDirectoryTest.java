package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static io.hikyaku.cluster.TestCluster.bytes;
import static io.hikyaku.cluster.TestCluster.text;
import static org.assertj.core.api.Assertions.assertThat;

/** The replica's store replaced as a whole by a checkpoint, and what a start finds after a crash. */
class ReplicaDirectoryTest {

    @TempDir
    Path dir;

    private static void put(RocksDbStore store, String key) {
        store.write(new StoreBatch().put(Keyspace.MESSAGES, bytes(key), bytes("v"))).join();
    }

    private static String get(RocksDbStore store, String key) {
        return text(store.get(Keyspace.MESSAGES, bytes(key)));
    }

    @Test
    void aCheckpointReplacesTheStoreAndCurrentNamesIt() throws Exception {
        Path replica = dir.resolve("replica");
        Path snapshot = dir.resolve("snapshot");
        try (ReplicaDirectory r = ReplicaDirectory.open(replica, null)) {
            put(r.current(), "before");
            r.checkpoint(snapshot);
            Files.writeString(snapshot.resolve("000001.sst.md5"), "digest written by Ratis beside a received file");
            put(r.current(), "after");
            RocksDbStore replaced = r.replaceWith(snapshot);
            assertThat(replaced).isSameAs(r.current());
            assertThat(get(replaced, "before")).isEqualTo("v");
            assertThat(get(replaced, "after")).isNull(); // the snapshot's state, not the old store's
            assertThat(Files.readString(replica.resolve(ReplicaDirectory.CURRENT)).strip()).isEqualTo("store-2");
            assertThat(Files.exists(replica.resolve("store-1"))).isFalse();
            try (Stream<Path> files = Files.list(replica.resolve("store-2"))) {
                assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".md5"));
            }
            assertThat(Files.isDirectory(snapshot)).as("the snapshot is left as it was").isTrue();
        }
        try (ReplicaDirectory r = ReplicaDirectory.open(replica, null)) {
            assertThat(r.current().dataDir().getFileName().toString()).isEqualTo("store-2");
            assertThat(get(r.current(), "before")).isEqualTo("v");
        }
    }

    @Test
    void directoriesCurrentDoesNotNameAreLeftoversOfAnInterruptedReplacement() throws Exception {
        Path replica = dir.resolve("replica");
        try (ReplicaDirectory r = ReplicaDirectory.open(replica, null)) {
            put(r.current(), "kept");
        }
        Files.createDirectories(replica.resolve("incoming-2").resolve("x"));
        Files.createDirectories(replica.resolve("store-2"));
        try (ReplicaDirectory r = ReplicaDirectory.open(replica, null)) {
            assertThat(get(r.current(), "kept")).isEqualTo("v");
            assertThat(Files.exists(replica.resolve("incoming-2"))).isFalse();
            assertThat(Files.exists(replica.resolve("store-2"))).isFalse();
        }
    }

    @Test
    void aStoreOfTheFirstClusterSliceInTheDataDirectoryMovesIntoTheReplicaOnce() throws Exception {
        Path data = dir.resolve("data");
        try (RocksDbStore legacy = RocksDbStore.open(data, Durability.NONE)) {
            put(legacy, "old");
        }
        try (ReplicaDirectory r = ReplicaDirectory.open(data.resolve("replica"), data)) {
            assertThat(get(r.current(), "old")).isEqualTo("v");
            put(r.current(), "new");
        }
        try (ReplicaDirectory r = ReplicaDirectory.open(data.resolve("replica"), data)) {
            assertThat(get(r.current(), "new")).isEqualTo("v"); // not taken from the old store again
        }
    }
}
