package io.hikyaku.store.rocksdb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DEDUP keeps exactly what the engine has not deleted (no drop by age, which a replica or replay
 * would see differently), and what the engine deletes leaves the disk through compaction: an entry
 * and its SingleDelete vanish together. Run on the store's own DEDUP options.
 */
class DedupCompactionTest {

    @TempDir
    Path tmp;

    /** A DEDUP key as the engine writes it: queue id, 'D', seq. */
    private static byte[] key(long queue, long seq) {
        return ByteBuffer.allocate(17).putLong(queue).put((byte) 'D').putLong(seq).array();
    }

    @Test
    void deletedEntriesAndTheirTombstonesLeaveThroughCompactionTheRestStays() throws Exception {
        NativeLibrary.load();
        try (Tuning tuning = new Tuning(RocksDbStoreOptions.defaults(), CompressionType.NO_COMPRESSION);
             ColumnFamilyOptions dedup = tuning.dedupFamily(1 << 20)) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                    new ColumnFamilyDescriptor(b("DEDUP"), dedup));
            try (RocksDB db = RocksDB.open(tuning.dbOptions, tmp.toString(), families, handles);
                 FlushOptions wait = new FlushOptions().setWaitForFlush(true)) {
                ColumnFamilyHandle family = handles.get(1);
                byte[] value = new byte[66];
                // Two queues sending in turn, tables flushed along the way, as a FIFO workload writes them.
                for (long seq = 1; seq <= 20_000; seq++) {
                    db.put(family, key(1, seq), value);
                    db.put(family, key(2, seq), value);
                    if (seq % 5_000 == 0) {
                        db.flush(wait, family);
                    }
                }
                // Five minutes later the engine deletes them in the order it wrote them; the newest stay.
                for (long seq = 1; seq <= 18_000; seq++) {
                    db.singleDelete(family, key(1, seq));
                    db.singleDelete(family, key(2, seq));
                }
                db.flush(wait, family);
                db.compactRange(family);
                long live = 0;
                try (RocksIterator it = db.newIterator(family)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        live++;
                    }
                }
                assertThat(live).as("what was not deleted, all of it").isEqualTo(2 * 2_000);
                assertThat(Long.parseLong(db.getProperty(family, "rocksdb.estimate-num-keys")))
                        .as("entries and tombstones of the deleted ones are gone from the tables")
                        .isLessThanOrEqualTo(2 * 2_000);
                assertThat(Long.parseLong(db.getProperty(family, "rocksdb.total-sst-files-size")))
                        .as("about the live entries' size, not the 40,000 written")
                        .isLessThan(4_000L * 100 * 2);
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }
}
