package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Java-built WriteBatch must be byte for byte what RocksJava builds key by key. */
class WriteBatchEncoderTest {

    @BeforeAll
    static void loadNative() {
        NativeLibrary.load();
    }

    @TempDir
    Path tmp;

    @Test
    void matchesRocksJavaForEveryKindInNamedAndDefaultFamilies() throws Exception {
        StoreBatch batch = new StoreBatch()
                .put(Keyspace.MESSAGES, b("m1"), b("body"))
                .put(Keyspace.MESSAGE_STATE, b("m1"), new byte[0])
                .delete(Keyspace.MESSAGE_STATE, b("m0"))
                .deleteOnceWritten(Keyspace.MESSAGES, b("m0"))
                .put(Keyspace.META, b("in-default"), b("v")) // META mapped to the default family here
                .delete(Keyspace.META, b("gone"))
                .deleteOnceWritten(Keyspace.META, b("once"));
        assertSameAsRocksJava(batch, 42);
    }

    @Test
    void multiByteLengthsAndLargeBatchNumbers() throws Exception {
        byte[] longKey = new byte[300];
        byte[] bigValue = new byte[70_000]; // a three-byte varint
        new Random(7).nextBytes(bigValue);
        Arrays.fill(longKey, (byte) 'k');
        StoreBatch batch = new StoreBatch().put(Keyspace.MESSAGES, longKey, bigValue)
                .put(Keyspace.DEDUP, b("x"), new byte[128])
                .delete(Keyspace.HOUSEKEEPING, new byte[127]);
        assertSameAsRocksJava(batch, Long.MAX_VALUE);
        assertSameAsRocksJava(new StoreBatch().put(Keyspace.QUEUES, b("q"), b("v")), 0x0102030405060708L);
    }

    @Test
    void randomBatchesMatch() throws Exception {
        Random random = new Random(11);
        Keyspace[] spaces = Keyspace.values();
        for (int round = 0; round < 200; round++) {
            StoreBatch batch = new StoreBatch();
            int n = random.nextInt(30);
            for (int i = 0; i < n; i++) {
                Keyspace space = spaces[random.nextInt(spaces.length)];
                byte[] key = new byte[1 + random.nextInt(200)];
                random.nextBytes(key);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        byte[] value = new byte[random.nextInt(random.nextBoolean() ? 100 : 20_000)];
                        random.nextBytes(value);
                        batch.put(space, key, value);
                    }
                    case 1 -> batch.delete(space, key);
                    default -> batch.deleteOnceWritten(space, key);
                }
            }
            assertSameAsRocksJava(batch, random.nextLong() & Long.MAX_VALUE);
        }
    }

    @Test
    void rocksDbAppliesTheEncodedBatch() throws Exception {
        try (Db db = new Db(tmp.resolve("apply"))) {
            StoreBatch batch = new StoreBatch().put(Keyspace.MESSAGES, b("a"), b("1"))
                    .put(Keyspace.MESSAGES, b("b"), b("2"))
                    .deleteOnceWritten(Keyspace.MESSAGES, b("a"));
            byte[] rep = WriteBatchEncoder.withBatchNumber(WriteBatchEncoder.encode(batch.ops(), db.ids), 9);
            try (WriteBatch wb = new WriteBatch(rep); WriteOptions wo = new WriteOptions()) {
                db.db.write(wo, wb);
            }
            assertThat(db.db.get(db.family(Keyspace.MESSAGES), b("a"))).isNull();
            assertThat(db.db.get(db.family(Keyspace.MESSAGES), b("b"))).isEqualTo(b("2"));
            assertThat(db.db.get(BatchNumber.KEY)).isEqualTo(ByteBuffer.allocate(8).putLong(9).array());
        }
    }

    @Test
    void concatenatedBatchesAreByteForByteTheirEntriesInOneRocksJavaBatch() throws Exception {
        try (Db db = new Db(tmp.resolve("concat"))) {
            StoreBatch first = new StoreBatch().put(Keyspace.MESSAGES, b("a"), b("1"))
                    .put(Keyspace.DEDUP, b("d"), new byte[200]);
            StoreBatch second = new StoreBatch().deleteOnceWritten(Keyspace.MESSAGES, b("a"));
            StoreBatch third = new StoreBatch().put(Keyspace.MESSAGE_STATE, b("s"), b("x"))
                    .delete(Keyspace.HOUSEKEEPING, b("h"));
            List<StoreBatch> batches = List.of(first, second, third);
            List<byte[]> reps = new ArrayList<>();
            for (int i = 0; i < batches.size(); i++) {
                reps.add(WriteBatchEncoder.withBatchNumber(WriteBatchEncoder.encode(batches.get(i).ops(), db.ids), 7 + i));
            }
            try (WriteBatch reference = new WriteBatch()) {
                for (int i = 0; i < batches.size(); i++) {
                    addAsRocksJava(reference, db, batches.get(i), 7 + i);
                }
                assertThat(WriteBatchEncoder.concat(reps)).isEqualTo(reference.data());
            }
            assertThat(WriteBatchEncoder.concat(List.of(reps.get(0)))).isSameAs(reps.get(0));
            // Applied in order: the SingleDelete of the second batch meets the first batch's Put.
            try (WriteBatch wb = new WriteBatch(WriteBatchEncoder.concat(reps)); WriteOptions wo = new WriteOptions()) {
                db.db.write(wo, wb);
            }
            assertThat(db.db.get(db.family(Keyspace.MESSAGES), b("a"))).isNull();
            assertThat(db.db.get(db.family(Keyspace.MESSAGE_STATE), b("s"))).isEqualTo(b("x"));
            assertThat(db.db.get(BatchNumber.KEY)).isEqualTo(ByteBuffer.allocate(8).putLong(9).array());
        }
    }

    @Test
    void aDamagedCountIsRefusedNotApplied() throws Exception {
        try (Db db = new Db(tmp.resolve("bad"))) {
            StoreBatch batch = new StoreBatch().put(Keyspace.MESSAGES, b("a"), b("1"));
            byte[] rep = WriteBatchEncoder.withBatchNumber(WriteBatchEncoder.encode(batch.ops(), db.ids), 1);
            rep[8]++; // claims one entry more than it holds
            try (WriteBatch wb = new WriteBatch(rep); WriteOptions wo = new WriteOptions()) {
                assertThatThrownBy(() -> db.db.write(wo, wb)).isInstanceOf(RocksDBException.class);
            }
            assertThat(db.db.get(db.family(Keyspace.MESSAGES), b("a"))).isNull();
        }
    }

    private void assertSameAsRocksJava(StoreBatch batch, long number) throws Exception {
        try (Db db = new Db(tmp.resolve("db" + System.nanoTime()))) {
            byte[] ours = WriteBatchEncoder.withBatchNumber(WriteBatchEncoder.encode(batch.ops(), db.ids), number);
            try (WriteBatch reference = new WriteBatch()) {
                addAsRocksJava(reference, db, batch, number);
                assertThat(ours).isEqualTo(reference.data());
            }
        }
    }

    /** The batch's entries and its number, added key by key the way RocksJava builds a batch. */
    private static void addAsRocksJava(WriteBatch reference, Db db, StoreBatch batch, long number) throws RocksDBException {
        for (StoreBatch.Op op : batch.ops()) {
            ColumnFamilyHandle cf = db.family(op.space());
            switch (op.kind()) {
                case PUT -> reference.put(cf, op.key(), op.value());
                case DELETE -> reference.delete(cf, op.key());
                case DELETE_ONCE_WRITTEN -> reference.singleDelete(cf, op.key());
            }
        }
        reference.put(db.db.getDefaultColumnFamily(), BatchNumber.KEY, ByteBuffer.allocate(8).putLong(number).array());
    }

    /** A database with one family per keyspace except META, which uses the default family (id 0). */
    private static final class Db implements AutoCloseable {
        final RocksDB db;
        final DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        final List<ColumnFamilyHandle> handles = new ArrayList<>();
        final Map<Keyspace, ColumnFamilyHandle> byKeyspace = new EnumMap<>(Keyspace.class);
        final WriteBatchEncoder.FamilyIds ids = space -> family(space).getID();

        Db(Path dir) throws RocksDBException {
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
            List<Keyspace> named = new ArrayList<>();
            for (Keyspace space : Keyspace.values()) {
                if (space != Keyspace.META) {
                    named.add(space);
                    descriptors.add(new ColumnFamilyDescriptor(space.name().getBytes(StandardCharsets.UTF_8)));
                }
            }
            db = RocksDB.open(options, dir.toString(), descriptors, handles);
            byKeyspace.put(Keyspace.META, handles.get(0));
            for (int i = 0; i < named.size(); i++) {
                byKeyspace.put(named.get(i), handles.get(i + 1));
            }
        }

        ColumnFamilyHandle family(Keyspace space) {
            return byKeyspace.get(space);
        }

        @Override
        public void close() {
            handles.forEach(ColumnFamilyHandle::close);
            db.close();
            options.close();
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
