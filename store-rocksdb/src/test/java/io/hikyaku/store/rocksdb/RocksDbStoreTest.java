package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static io.hikyaku.store.rocksdb.StoreContractTest.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RocksDbStoreTest {

    @TempDir
    Path tmp;

    @Test
    void dataSurvivesCloseAndReopen() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.write(new StoreBatch().put(Keyspace.QUEUES, b("q"), b("queue"))
                    .put(Keyspace.MESSAGES, b("m1"), b("body1"))
                    .put(Keyspace.MESSAGES, b("m2"), b("body2"))).get(10, TimeUnit.SECONDS);
            store.write(new StoreBatch().deleteOnceWritten(Keyspace.MESSAGES, b("m1"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(s(store.get(Keyspace.QUEUES, b("q")))).isEqualTo("queue");
            assertThat(store.get(Keyspace.MESSAGES, b("m1"))).isNull();
            assertThat(s(store.get(Keyspace.MESSAGES, b("m2")))).isEqualTo("body2");
            assertThat(store.isEphemeral()).isFalse();
        }
    }

    @Test
    void aCleanCloseLeavesNoWalToReplay() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            StoreBatch batch = new StoreBatch();
            for (int i = 0; i < 2000; i++) {
                batch.put(Keyspace.MESSAGES, b("m" + i), new byte[300]);
            }
            store.write(batch).get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(walBytes(dir)).as("written to the WAL first").isGreaterThan(600_000);
        }
        // WAL files stay on disk for reuse (recycle_log_file_num), so their size says nothing: a replay
        // would show as a new table written by the open's recovery flush instead.
        long tablesAfterClose = filesEndingWith(dir, ".sst");
        assertThat(tablesAfterClose).as("memtables flushed at close").isPositive();
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(filesEndingWith(dir, ".sst")).as("nothing replayed from the WAL").isEqualTo(tablesAfterClose);
            assertThat(store.get(Keyspace.MESSAGES, b("m1999"))).hasSize(300);
        }
    }

    private static long walBytes(Path dir) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static long filesEndingWith(Path dir, String suffix) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
        }
    }

    @Test
    void everyKeyspaceHasItsOwnColumnFamilyAndFormatFileIsWritten() throws Exception {
        Path dir = tmp.resolve("data");
        RocksDbStore.open(dir).close();
        assertThat(Files.readString(dir.resolve("FORMAT")).trim()).isEqualTo("hikyaku-rocksdb-format 1");
        List<String> families = new ArrayList<>();
        try (org.rocksdb.Options o = new org.rocksdb.Options()) {
            for (byte[] name : org.rocksdb.RocksDB.listColumnFamilies(o, dir.toString())) {
                families.add(s(name));
            }
        }
        assertThat(families).containsExactlyInAnyOrder("default", "META", "QUEUES", "MESSAGES",
                "MESSAGE_STATE", "DEDUP", "HOUSEKEEPING");
        String optionsFile;
        try (var files = Files.list(dir)) {
            optionsFile = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
                    .findFirst().orElseThrow().toString();
        }
        String options = Files.readString(Path.of(optionsFile));
        assertThat(familyOptions(options, "MESSAGES")).contains("compression=kLZ4Compression");
        assertThat(familyOptions(options, "DEDUP")).as("hashes and ids: not worth compressing")
                .contains("compression=kNoCompression");
        assertThat(familyOptions(options, "DEDUP")).as("nothing dropped or rewritten by a clock: a replica would differ")
                .contains("compaction_style=kCompactionStyleLevel")
                .contains("ttl=0")
                .contains("periodic_compaction_seconds=0");
        assertThat(familyOptions(options, "MESSAGES")).contains("compaction_style=kCompactionStyleLevel");
        assertThat(options).as("a bounded table cache: start-up opens a part of it, not every table")
                .contains("max_open_files=" + RocksDbStore.MAX_OPEN_TABLES);
        assertThat(options).as("WAL files are reused (RocksDB would silently turn this off for an incompatible "
                + "recovery mode)").contains("recycle_log_file_num=" + Tuning.RECYCLED_WAL_FILES)
                .contains("wal_recovery_mode=kPointInTimeRecovery");
    }

    @Test
    void dedupTablesAnEarlierVersionWroteUnderFifoCompactionAreStillRead() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.write(new StoreBatch().put(Keyspace.META, b("m"), b("v"))).get(10, TimeUnit.SECONDS);
        }
        // What an earlier version (FIFO compaction with a TTL for DEDUP) left behind: tables in level 0.
        List<byte[]> names;
        try (org.rocksdb.Options o = new org.rocksdb.Options()) {
            names = org.rocksdb.RocksDB.listColumnFamilies(o, dir.toString());
        }
        List<org.rocksdb.ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        org.rocksdb.ColumnFamilyOptions fifo = new org.rocksdb.ColumnFamilyOptions()
                .setCompactionStyle(org.rocksdb.CompactionStyle.FIFO).setTtl(600);
        names.forEach(n -> descriptors.add(s(n).equals("DEDUP") ? new org.rocksdb.ColumnFamilyDescriptor(n, fifo)
                : new org.rocksdb.ColumnFamilyDescriptor(n)));
        List<org.rocksdb.ColumnFamilyHandle> handles = new ArrayList<>();
        try (fifo; org.rocksdb.DBOptions o = new org.rocksdb.DBOptions().setMaxOpenFiles(-1);
             org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(o, dir.toString(), descriptors, handles);
             org.rocksdb.FlushOptions wait = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
            org.rocksdb.ColumnFamilyHandle dedup = handles.get(names.stream().map(StoreContractTest::s).toList()
                    .indexOf("DEDUP"));
            for (int i = 0; i < 100; i++) {
                db.put(dedup, b("d" + i), b("v" + i));
                if (i % 50 == 49) {
                    db.flush(wait, dedup);
                }
            }
            assertThat(db.getProperty(dedup, "rocksdb.num-files-at-level0")).isEqualTo("2");
            handles.forEach(org.rocksdb.ColumnFamilyHandle::close);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            List<String> seen = new ArrayList<>();
            store.scan(Keyspace.DEDUP, new byte[0], (k, v) -> seen.add(s(k) + "=" + s(v)));
            assertThat(seen).hasSize(100).contains("d0=v0", "d99=v99");
            store.write(new StoreBatch().deleteOnceWritten(Keyspace.DEDUP, b("d0"))
                    .put(Keyspace.DEDUP, b("d100"), b("v100"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(store.get(Keyspace.DEDUP, b("d0"))).isNull();
            assertThat(s(store.get(Keyspace.DEDUP, b("d1")))).isEqualTo("v1");
            assertThat(s(store.get(Keyspace.DEDUP, b("d100")))).isEqualTo("v100");
        }
    }

    /** The lines of one [CFOptions "name"] section of a RocksDB OPTIONS file. */
    private static String familyOptions(String optionsFile, String family) {
        int start = optionsFile.indexOf("[CFOptions \"" + family + "\"]");
        assertThat(start).as("section of " + family).isGreaterThanOrEqualTo(0);
        int end = optionsFile.indexOf("\n[", start + 1);
        return optionsFile.substring(start, end < 0 ? optionsFile.length() : end);
    }

    @Test
    void fsyncGroupsConcurrentBatchesIntoFewerSyncs() throws Exception {
        try (RocksDbStore store = RocksDbStore.open(tmp.resolve("data"), Durability.FSYNC)) {
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                futures.add(store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m" + i), new byte[100])));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(store.walSyncCount()).isBetween(1L, 499L);
        }
    }

    @Test
    void fsyncWritesWaitingForTheSyncerAreReadBackInOrder() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            CompletableFuture<Void> put = store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m1"), b("one")));
            CompletableFuture<Void> delete = store.write(new StoreBatch().deleteOnceWritten(Keyspace.MESSAGES, b("m1")));
            CompletableFuture<Void> second = store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m2"), b("two")));
            // Whether or not the syncer has applied them yet, a read sees all three, in order.
            assertThat(store.get(Keyspace.MESSAGES, b("m1"))).isNull();
            assertThat(s(store.get(Keyspace.MESSAGES, b("m2")))).isEqualTo("two");
            CompletableFuture.allOf(put, delete, second).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            assertThat(store.get(Keyspace.MESSAGES, b("m1"))).isNull();
            assertThat(s(store.get(Keyspace.MESSAGES, b("m2")))).isEqualTo("two");
        }
    }

    @Test
    void closeLeavesNoWriteUnansweredAndKeepsEveryAcknowledgedOne() throws Exception {
        Path dir = tmp.resolve("data");
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC);
        Thread writer = new Thread(() -> {
            for (int i = 0; i < 20_000; i++) {
                CompletableFuture<Void> f = store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m" + i), b("v" + i)));
                synchronized (futures) {
                    futures.add(f);
                }
                if (f.isCompletedExceptionally()) {
                    return; // closed
                }
            }
        });
        writer.start();
        while (true) {
            synchronized (futures) {
                if (futures.size() >= 200) {
                    break;
                }
            }
            Thread.sleep(1);
        }
        store.close();
        writer.join(30_000);
        List<Integer> acknowledged = new ArrayList<>();
        synchronized (futures) {
            for (int i = 0; i < futures.size(); i++) {
                CompletableFuture<Void> f = futures.get(i);
                assertThat(f).as("write " + i).isDone();
                if (!f.isCompletedExceptionally()) {
                    acknowledged.add(i);
                }
            }
        }
        assertThat(acknowledged).isNotEmpty();
        try (RocksDbStore reopened = RocksDbStore.open(dir, Durability.FSYNC)) {
            for (int i : acknowledged) {
                assertThat(s(reopened.get(Keyspace.MESSAGES, b("m" + i)))).as("acknowledged write " + i).isEqualTo("v" + i);
            }
        }
    }

    @Test
    void batchAndNoneDurabilityAcknowledgeAtOnce() throws Exception {
        for (Durability d : new Durability[] {Durability.BATCH, Durability.NONE}) {
            Path dir = tmp.resolve(d.name());
            try (RocksDbStore store = RocksDbStore.open(dir, d)) {
                CompletableFuture<Void> f = store.write(new StoreBatch().put(Keyspace.META, b("k"), b(d.name())));
                assertThat(f).isCompleted();
            }
            try (RocksDbStore store = RocksDbStore.open(dir, d)) {
                assertThat(s(store.get(Keyspace.META, b("k")))).isEqualTo(d.name());
            }
        }
    }

    @Test
    void batchDurabilitySyncsOnItsTimer() throws Exception {
        RocksDbStoreOptions options = RocksDbStoreOptions.defaults().withDurability(Durability.BATCH)
                .withSyncIntervalMillis(5);
        try (RocksDbStore store = RocksDbStore.open(tmp.resolve("data"), options)) {
            store.write(new StoreBatch().put(Keyspace.META, b("k"), b("v")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (store.walSyncCount() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(store.walSyncCount()).isPositive();
        }
    }

    @Test
    void secondOpenOfTheSameDirectoryIsRefusedWithAClearMessage() {
        Path dir = tmp.resolve("data");
        try (RocksDbStore ignored = RocksDbStore.open(dir)) {
            assertThatThrownBy(() -> RocksDbStore.open(dir))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("data directory " + dir.toAbsolutePath())
                    .hasMessageContaining("is in use by another Hikyaku process");
        }
        RocksDbStore.open(dir).close();
    }

    @Test
    void missingDirectoriesAreCreated() {
        Path dir = tmp.resolve("a/b/c");
        RocksDbStore.open(dir).close();
        assertThat(dir.resolve("FORMAT")).exists();
    }

    @Test
    void directoryThatCannotBeCreatedGivesAClearMessage() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        assertThatThrownBy(() -> RocksDbStore.open(file.resolve("data")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("cannot create data directory " + file.resolve("data"));
        assertThatThrownBy(() -> RocksDbStore.open(file))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("is not a directory");
    }

    @Test
    void unwritableDirectoryGivesAClearMessage() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        // /proc is never writable, even for root; a permission bit check alone would pass as root.
        Path proc = Path.of("/proc/self/hikyaku-data");
        assertThatThrownBy(() -> RocksDbStore.open(proc))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(proc.toString());
        if (!"root".equals(System.getProperty("user.name"))) {
            dir.toFile().setWritable(false);
            try {
                assertThatThrownBy(() -> RocksDbStore.open(dir))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("is not writable");
            } finally {
                dir.toFile().setWritable(true);
            }
        }
    }

    @Test
    void newerFormatVersionIsRefusedAndLeftUntouched() throws Exception {
        Path dir = tmp.resolve("data");
        RocksDbStore.open(dir).close();
        Files.writeString(dir.resolve("FORMAT"), "hikyaku-rocksdb-format 2\n");
        assertThatThrownBy(() -> RocksDbStore.open(dir))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("format version 2")
                .hasMessageContaining("newer than this Hikyaku build understands");
        assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("hikyaku-rocksdb-format 2\n");
        Files.writeString(dir.resolve("FORMAT"), "something else\n");
        assertThatThrownBy(() -> RocksDbStore.open(dir))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("not a Hikyaku RocksDB format");
    }

    @Test
    void foreignNonEmptyDirectoryIsRefused() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(dir.resolve("important.txt"), "not ours");
        assertThatThrownBy(() -> RocksDbStore.open(dir))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("is not empty and has no FORMAT file");
        assertThat(dir.resolve("important.txt")).exists();
    }

    @Test
    void closedStoreRefusesCallsInsteadOfCrashing() {
        RocksDbStore store = RocksDbStore.open(tmp.resolve("data"));
        store.close();
        store.close();
        assertThatThrownBy(() -> store.get(Keyspace.META, b("k"))).isInstanceOf(StoreException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> store.scan(Keyspace.META, b(""), (k, v) -> true))
                .isInstanceOf(StoreException.class);
        assertThat(store.write(new StoreBatch().put(Keyspace.META, b("k"), b("v"))))
                .isCompletedExceptionally();
    }

    @Test
    void checkpointOfALiveStoreOpensAsAStore() throws Exception {
        Path dir = tmp.resolve("data");
        Path backup = tmp.resolve("backups/one");
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            store.write(new StoreBatch().put(Keyspace.QUEUES, b("q"), b("v1"))).get(10, TimeUnit.SECONDS);
            store.checkpoint(backup);
            store.write(new StoreBatch().put(Keyspace.QUEUES, b("q"), b("v2"))).get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> store.checkpoint(backup)).hasMessageContaining("already exists");
        }
        assertThat(backup.resolve("FORMAT")).exists();
        assertThat(DurableWatermark.read(backup)).isPositive();
        try (RocksDbStore restored = RocksDbStore.open(backup)) {
            assertThat(s(restored.get(Keyspace.QUEUES, b("q")))).isEqualTo("v1");
        }
    }

    @Test
    void offlineBackupCopiesAClosedStoreAndRefusesAnOpenOne() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m"), b("body"))).get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> RocksDbStore.backup(dir, tmp.resolve("b0")))
                    .hasMessageContaining("in use by another Hikyaku process");
        }
        RocksDbStore.backup(dir, tmp.resolve("b1"));
        try (RocksDbStore restored = RocksDbStore.open(tmp.resolve("b1"))) {
            assertThat(s(restored.get(Keyspace.MESSAGES, b("m")))).isEqualTo("body");
        }
        assertThatThrownBy(() -> RocksDbStore.backup(tmp.resolve("nothing"), tmp.resolve("b2")))
                .hasMessageContaining("holds no Hikyaku store");
    }
}
