package io.hikyaku.server.storage;

import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.server.DurabilityMode;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the durable RocksDB store. */
final class RocksDbOpener {

    private static final Logger LOG = LoggerFactory.getLogger(RocksDbOpener.class);

    private RocksDbOpener() {}

    static Store open(Path dataDir, DurabilityMode durability) {
        // TODO(store-rocksdb): placeholder until io.hikyaku.store.rocksdb.RocksDbStore lands on main; then:
        //   return RocksDbStore.open(dataDir, Durability.valueOf(durability.name()));
        LOG.warn("RocksDB store not built yet: keeping state in memory instead of {}", dataDir);
        return new MemoryStore();
    }
}
