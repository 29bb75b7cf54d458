package io.hikyaku.store.rocksdb;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The store's own batch counter. Every batch the store writes also puts its number (1, 2, 3, ...)
 * under one key of the otherwise unused {@code default} column family, inside the same atomic
 * RocksDB batch. Numbers are given out in WAL order, so whatever state RocksDB recovers (WAL replay,
 * SST files, after flushes and compactions), the value under that key is the number of the last
 * batch it holds. That is what the open-time check compares with {@link DurableWatermark}.
 * {@link WriteBatchEncoder} appends the entry (value big-endian) to every batch.
 *
 * <p>RocksDB's own sequence number cannot be used for this: it is not durable as such. A flush writes
 * into the MANIFEST only the largest sequence number found in its output, so when the last writes
 * leave nothing behind (a SingleDelete meeting its Put in the memtable), the sequence recovered after
 * the WAL is gone is lower than the one the previous process reported (issue 3, STORAGE.md).
 */
final class BatchNumber {

    /** Key in the default column family; the engine never uses that family. */
    static final byte[] KEY = "hikyaku.last-batch".getBytes(StandardCharsets.UTF_8);

    private BatchNumber() {
    }

    /** The number of the last batch {@code db} holds; 0 if it holds none (new, or written before this counter). */
    static long last(RocksDB db, ColumnFamilyHandle family) throws RocksDBException {
        byte[] value = db.get(family, KEY);
        return value == null || value.length != 8 ? 0 : ByteBuffer.wrap(value).getLong();
    }
}
