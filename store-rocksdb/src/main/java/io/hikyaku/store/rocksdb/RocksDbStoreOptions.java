package io.hikyaku.store.rocksdb;

/**
 * Tuning of a {@link RocksDbStore}. The defaults suit a queue server that must stay small when idle.
 *
 * @param durability when write futures complete
 * @param syncIntervalMillis for {@link Durability#BATCH}: how often the WAL is fsynced
 * @param blockCacheBytes shared LRU cache for data, index and filter blocks; memtables are charged to it too
 * @param memtableBudgetBytes all memtables together (a flush is forced beyond this)
 * @param messagesWriteBufferBytes memtable size of the MESSAGES column family (others use a quarter)
 * @param maxSpaceBytes SST space limit enforced by RocksDB (0 = unlimited); exceeding it behaves like disk full
 * @param verifyChecksumsOnOpen read every SST block once at open so corruption is found at start, not later
 */
public record RocksDbStoreOptions(
        Durability durability,
        long syncIntervalMillis,
        long blockCacheBytes,
        long memtableBudgetBytes,
        long messagesWriteBufferBytes,
        long maxSpaceBytes,
        boolean verifyChecksumsOnOpen) {

    public static final long DEFAULT_SYNC_INTERVAL_MILLIS = 10;

    public RocksDbStoreOptions {
        if (durability == null) {
            throw new IllegalArgumentException("durability is required");
        }
        if (syncIntervalMillis < 1) {
            throw new IllegalArgumentException("syncIntervalMillis must be >= 1");
        }
        if (messagesWriteBufferBytes < 64 * 1024) {
            throw new IllegalArgumentException("messagesWriteBufferBytes must be >= 64 KiB");
        }
    }

    public static RocksDbStoreOptions defaults() {
        return new RocksDbStoreOptions(Durability.FSYNC, DEFAULT_SYNC_INTERVAL_MILLIS,
                32L << 20, 16L << 20, 4L << 20, 0, true);
    }

    public RocksDbStoreOptions withDurability(Durability value) {
        return new RocksDbStoreOptions(value, syncIntervalMillis, blockCacheBytes, memtableBudgetBytes,
                messagesWriteBufferBytes, maxSpaceBytes, verifyChecksumsOnOpen);
    }

    public RocksDbStoreOptions withSyncIntervalMillis(long value) {
        return new RocksDbStoreOptions(durability, value, blockCacheBytes, memtableBudgetBytes,
                messagesWriteBufferBytes, maxSpaceBytes, verifyChecksumsOnOpen);
    }

    public RocksDbStoreOptions withWriteBuffers(long messagesBytes, long budgetBytes) {
        return new RocksDbStoreOptions(durability, syncIntervalMillis, blockCacheBytes, budgetBytes,
                messagesBytes, maxSpaceBytes, verifyChecksumsOnOpen);
    }

    public RocksDbStoreOptions withMaxSpaceBytes(long value) {
        return new RocksDbStoreOptions(durability, syncIntervalMillis, blockCacheBytes, memtableBudgetBytes,
                messagesWriteBufferBytes, value, verifyChecksumsOnOpen);
    }
}
