package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static io.hikyaku.store.rocksdb.StoreContractTest.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/** Damaged files must never lose acknowledged data silently: the store has it all or refuses to open. */
class CorruptionTest {

    private static final int MESSAGES = 50;

    @TempDir
    Path tmp;

    private Path writeAcknowledged(boolean flushToSst) throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.keepMemtablesAtClose(); // stopped as by a crash: the WAL holds the recent batches
            for (int i = 0; i < MESSAGES; i++) {
                store.write(new StoreBatch().put(Keyspace.MESSAGES, b(key(i)), body(i))).get(10, TimeUnit.SECONDS);
            }
            if (flushToSst) {
                store.flushAndCompact();
            }
        }
        return dir;
    }

    private static String key(int i) {
        return String.format("msg-%05d", i);
    }

    private static byte[] body(int i) {
        return b(("body of message " + i + " ").repeat(20));
    }

    /** Opens and checks that everything acknowledged is there; returns false if open refused. */
    private boolean opensWithEverything(Path dir) {
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            for (int i = 0; i < MESSAGES; i++) {
                assertThat(store.get(Keyspace.MESSAGES, b(key(i)))).as(key(i)).isEqualTo(body(i));
            }
            return true;
        } catch (StoreException e) {
            assertThat(e.getMessage()).contains(dir.toAbsolutePath().toString()).contains("Refusing to start");
            return false;
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("LOCK")) {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static Path largest(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .max(Comparator.comparingLong(p -> p.toFile().length()))
                    .orElseThrow(() -> new AssertionError("no " + suffix + " file in " + dir));
        }
    }

    private static Path newest(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .filter(p -> p.toFile().length() > 0)
                    .max(Comparator.comparing(p -> p.getFileName().toString()))
                    .orElseThrow(() -> new AssertionError("no non-empty " + suffix + " file in " + dir));
        }
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            int v = raf.read();
            raf.seek(position);
            raf.write(v ^ 0x5a);
        }
    }

    @Test
    void flippedByteInTheLastAcknowledgedWalRecordIsRefusedAndLeftUntouched() throws Exception {
        Path dir = writeAcknowledged(false);
        Path wal = newest(dir, ".log");
        flipByte(wal, wal.toFile().length() - 20);
        byte[] before = Files.readAllBytes(wal);
        assertThatThrownBy(() -> RocksDbStore.open(dir))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("acknowledged as durable")
                .hasMessageContaining("Refusing to start");
        assertThat(Files.readAllBytes(wal)).isEqualTo(before);
        assertThat(opensWithEverything(dir)).isFalse();
    }

    @Test
    void truncatedWalTailIsRefused() throws Exception {
        Path dir = writeAcknowledged(false);
        Path wal = newest(dir, ".log");
        try (RandomAccessFile raf = new RandomAccessFile(wal.toFile(), "rw")) {
            raf.setLength(raf.length() - 30);
        }
        assertThat(opensWithEverything(dir)).isFalse();
    }

    @Test
    void flippedByteInTheMiddleOfTheWalIsRefused() throws Exception {
        Path dir = writeAcknowledged(false);
        Path wal = newest(dir, ".log");
        flipByte(wal, wal.toFile().length() / 2);
        assertThat(opensWithEverything(dir)).isFalse();
    }

    @Test
    void tornUnacknowledgedTailIsToleratedWithNothingLost() throws Exception {
        Path dir = writeAcknowledged(false);
        Path wal = newest(dir, ".log");
        // What a crash mid-write leaves: part of a record that nobody was told is durable.
        try (RandomAccessFile raf = new RandomAccessFile(wal.toFile(), "rw")) {
            raf.seek(raf.length());
            raf.write(new byte[] {0x12, 0x34, 0x56, 0x78, 0x01, 0x02, 0x7f});
        }
        assertThat(opensWithEverything(dir)).isTrue();
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("recovery"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            assertThat(s(store.get(Keyspace.META, b("after")))).isEqualTo("recovery");
        }
    }

    @Test
    void flippedByteInAnSstFileIsFoundAtOpen() throws Exception {
        Path dir = writeAcknowledged(true);
        Path sst = newest(dir, ".sst");
        flipByte(sst, sst.toFile().length() / 3);
        if (opensWithEverything(dir)) {
            fail("a corrupted SST block must not pass the open-time checksum verification");
        }
        assertThatThrownBy(() -> RocksDbStore.open(dir)).hasMessageContaining("corrupted");
    }

    /**
     * A store too big to verify before it opens (here: any size) opens at once and is verified in the
     * background: a healthy one ends verified, a damaged table is reported (and reading it fails,
     * since reads check their blocks until the verification has passed), never served as good data.
     */
    @Test
    void aBigStoreIsVerifiedInTheBackgroundAndDamageIsReported() throws Exception {
        Path healthy = writeAcknowledged(true);
        Path damaged = tmp.resolve("damaged");
        copy(healthy, damaged);
        long before = OpenDb.verifyAtOpenMaxBytes;
        OpenDb.verifyAtOpenMaxBytes = 0;
        try {
            try (RocksDbStore store = RocksDbStore.open(healthy)) {
                assertThat(store.awaitVerification(30_000)).isTrue();
                assertThat(store.corruption()).isNull();
                assertThat(store.get(Keyspace.MESSAGES, b(key(0)))).isEqualTo(body(0));
            }
            Path sst = largest(damaged, ".sst"); // the messages' table (the small ones are read at open)
            flipByte(sst, 10); // in the first data block (the index and filter, read at open, come last)
            try (RocksDbStore store = RocksDbStore.open(damaged)) { // opens: not verified before serving
                assertThat(store.awaitVerification(30_000)).isFalse();
                assertThat(store.corruption()).contains("is corrupted").contains(sst.getFileName().toString());
                boolean readFailed = false;
                for (int i = 0; i < MESSAGES && !readFailed; i++) {
                    try {
                        byte[] v = store.get(Keyspace.MESSAGES, b(key(i)));
                        assertThat(v).as("a value read back is the one written, never damaged bytes").isEqualTo(body(i));
                    } catch (StoreException e) {
                        readFailed = true;
                    }
                }
                assertThat(readFailed).as("the damaged block's messages cannot be read").isTrue();
            }
        } finally {
            OpenDb.verifyAtOpenMaxBytes = before;
        }
    }

    @Test
    void truncatedSstFileIsFoundAtOpen() throws Exception {
        Path dir = writeAcknowledged(true);
        Path sst = newest(dir, ".sst");
        try (RandomAccessFile raf = new RandomAccessFile(sst.toFile(), "rw")) {
            raf.setLength(raf.length() - 100);
        }
        assertThat(opensWithEverything(dir)).isFalse();
    }

    // Issue 3: the check must never refuse a healthy store. RocksDB's sequence number went backwards
    // across a reopen when the last batch ended with a SingleDelete that met its Put in a flush.

    private static StoreBatch putThenSingleDeleteLast() {
        return new StoreBatch().put(Keyspace.META, b("last"), b("2")).deleteOnceWritten(Keyspace.MESSAGES, b("m1"));
    }

    @Test
    void reopeningTwiceWithoutWritesAfterABatchEndingInASingleDeleteIsNotRefused() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.keepMemtablesAtClose(); // stopped as by a crash: the WAL holds the recent batches
            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m1"), b("body"))).get(10, TimeUnit.SECONDS);
            store.write(putThenSingleDeleteLast()).get(10, TimeUnit.SECONDS);
        }
        for (int open = 0; open < 3; open++) { // the first reopen flushes the recovered memtables
            try (RocksDbStore store = RocksDbStore.open(dir)) {
                assertThat(s(store.get(Keyspace.META, b("last")))).isEqualTo("2");
                assertThat(store.get(Keyspace.MESSAGES, b("m1"))).isNull();
            }
        }
        assertThat(DurableWatermark.read(dir)).isEqualTo(2);
    }

    @Test
    void reopeningAfterAFlushThatDroppedTheLastWritesIsNotRefused() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.keepMemtablesAtClose(); // stopped as by a crash: the WAL holds the recent batches
            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m1"), b("body"))).get(10, TimeUnit.SECONDS);
            store.write(putThenSingleDeleteLast()).get(10, TimeUnit.SECONDS);
            store.flushAndCompact(); // the WAL holding both batches is deleted
        }
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            assertThat(s(store.get(Keyspace.META, b("last")))).isEqualTo("2");
        }
    }

    @Test
    void deletedWalAfterAFlushIsStillRefusedWhenItHeldAcknowledgedBatches() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.keepMemtablesAtClose(); // stopped as by a crash: the WAL holds the recent batches
            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m1"), b("body"))).get(10, TimeUnit.SECONDS);
            store.flushAndCompact();
            store.write(putThenSingleDeleteLast()).get(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path wal : files.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
                Files.delete(wal);
            }
        }
        assertThatThrownBy(() -> RocksDbStore.open(dir))
                .hasMessageContaining("recovers only up to batch 1 but batches up to 2 were acknowledged")
                .hasMessageContaining("Refusing to start");
    }

    @Test
    void concurrentWritersGetBatchNumbersInWalOrder() throws Exception {
        Path dir = tmp.resolve("data");
        int threads = 4;
        int each = 300;
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.keepMemtablesAtClose(); // stopped as by a crash: the WAL holds the recent batches
            List<Thread> writers = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                int id = t;
                writers.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m" + id + "-" + i), b("x"))
                                    .deleteOnceWritten(Keyspace.MESSAGES, b("m" + id + "-" + i)))
                                    .get(10, TimeUnit.SECONDS);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            writers.forEach(Thread::start);
            for (Thread w : writers) {
                w.join();
            }
            assertThat(failures).isEmpty();
        }
        assertThat(DurableWatermark.read(dir)).isEqualTo((long) threads * each);
        for (int open = 0; open < 2; open++) {
            RocksDbStore.open(dir).close();
        }
    }

    @Test
    void watermarkFromBeforeTheBatchNumberIsIgnoredNotRefused() throws Exception {
        Path dir = tmp.resolve("data");
        try (RocksDbStore store = RocksDbStore.open(dir, Durability.FSYNC)) {
            store.keepMemtablesAtClose(); // stopped as by a crash: the WAL holds the recent batches
            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m1"), b("body"))).get(10, TimeUnit.SECONDS);
        }
        // What an older build left: a RocksDB sequence number under the old check word.
        long legacySequence = 1_000_000;
        java.nio.ByteBuffer old = java.nio.ByteBuffer.allocate(16).putLong(legacySequence)
                .putLong(legacySequence ^ 0x48696b79616b7521L);
        Files.write(dir.resolve(DurableWatermark.NAME), old.array());
        assertThat(DurableWatermark.read(dir)).isZero();
        try (RocksDbStore store = RocksDbStore.open(dir)) {
            assertThat(s(store.get(Keyspace.MESSAGES, b("m1")))).isEqualTo("body");
            store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m2"), b("body"))).get(10, TimeUnit.SECONDS);
        }
        assertThat(DurableWatermark.read(dir)).isEqualTo(2);
    }
}
