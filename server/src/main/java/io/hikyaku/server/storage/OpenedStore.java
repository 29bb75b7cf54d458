package io.hikyaku.server.storage;

/**
 * The store the server runs on.
 *
 * @param health  the store as the service sees it, watching write failures
 * @param backups online backups, or null when the store keeps nothing to back up (memory)
 * @param rocks   the RocksDB store for its metrics, or null (memory)
 */
public record OpenedStore(StoreHealth health, Backups backups, io.hikyaku.store.rocksdb.RocksDbStore rocks) {}
