package io.hikyaku.store.rocksdb;

/**
 * When a {@link RocksDbStore} write future completes, relative to the data reaching stable storage.
 * See STORAGE.md for the exact promises.
 */
public enum Durability {
    /** The future completes only after the write-ahead log holding the batch is fsynced (default). */
    FSYNC,
    /**
     * The future completes at once; the write-ahead log is fsynced every
     * {@link RocksDbStoreOptions#syncIntervalMillis()} ms. A machine crash can lose up to that much
     * acknowledged work; a process crash loses nothing (the data is in the OS page cache).
     */
    BATCH,
    /** The future completes at once; the OS decides when data reaches the disk. */
    NONE
}
