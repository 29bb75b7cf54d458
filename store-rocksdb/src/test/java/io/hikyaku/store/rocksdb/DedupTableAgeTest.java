package io.hikyaku.store.rocksdb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The safety argument for dropping DEDUP tables by age: RocksDB dates a flushed table by its flush,
 * not by its oldest entry, so an entry is never dropped before it is the TTL old. Run on the store's
 * own DEDUP options with only the TTL shortened (600 s in the store), so that a RocksDB upgrade
 * that changed how tables are dated would fail here.
 */
class DedupTableAgeTest {

    private static final long TTL_SECONDS = 2;

    @TempDir
    Path tmp;

    @Test
    void aTableIsDroppedByTheAgeOfItsFlushNotOfItsOldestEntry() throws Exception {
        try (Tuning tuning = new Tuning(RocksDbStoreOptions.defaults(), CompressionType.NO_COMPRESSION);
             ColumnFamilyOptions dedup = tuning.dedupFamily(1 << 20, TTL_SECONDS)) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                    new ColumnFamilyDescriptor(b("DEDUP"), dedup));
            try (RocksDB db = RocksDB.open(tuning.dbOptions, tmp.toString(), families, handles);
                 FlushOptions wait = new FlushOptions().setWaitForFlush(true)) {
                ColumnFamilyHandle family = handles.get(1);
                db.put(family, b("old"), b("v"));
                Thread.sleep(TTL_SECONDS * 1000 + 1500); // "old" is past the TTL while still in the memtable
                db.put(family, b("fresh"), b("v"));
                db.flush(wait, family);
                flushAnotherTable(db, family, wait, "after-first-flush");
                assertThat(db.get(family, b("old"))).as("its table is new: kept").isNotNull();
                assertThat(db.get(family, b("fresh"))).isNotNull();

                Thread.sleep(TTL_SECONDS * 1000 + 1500);
                flushAnotherTable(db, family, wait, "trigger"); // a flush makes RocksDB look at the ages
                for (int i = 0; i < 50 && db.get(family, b("fresh")) != null; i++) {
                    Thread.sleep(100);
                }
                assertThat(db.get(family, b("old"))).as("its table is past the TTL: dropped").isNull();
                assertThat(db.get(family, b("fresh"))).isNull();
                assertThat(db.get(family, b("trigger"))).as("a table younger than the TTL stays").isNotNull();
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    private static void flushAnotherTable(RocksDB db, ColumnFamilyHandle family, FlushOptions wait, String key)
            throws Exception {
        db.put(family, b(key), b("v"));
        db.flush(wait, family);
    }
}
