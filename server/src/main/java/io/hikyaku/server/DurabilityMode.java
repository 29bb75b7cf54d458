package io.hikyaku.server;

/**
 * How hard the ROCKSDB store works to keep acknowledged writes across a crash. Mirrors the store's
 * own {@code io.hikyaku.store.rocksdb.Durability}; the server maps one onto the other.
 */
public enum DurabilityMode {
    /** Acknowledge only after fsync (group commit); survives power loss. The default. */
    FSYNC,
    /** Acknowledge after the write reaches the OS; fsync in the background. Survives a process crash. */
    BATCH,
    /** No WAL sync at all; fastest, may lose recent writes on any crash. */
    NONE
}
