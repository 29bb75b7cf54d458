package io.hikyaku.server;

/** Where queue state lives. */
public enum StorageMode {
    /** Durable on disk (RocksDB under the data directory); the default. */
    ROCKSDB,
    /** On the heap only; everything is forgotten on exit. */
    MEMORY
}
