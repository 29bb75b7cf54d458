package io.hikyaku.server.storage;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.store.rocksdb.Durability;
import io.hikyaku.store.rocksdb.RocksDbStore;
import java.nio.file.Path;

/** Opens the durable RocksDB store; the server's durability names map one to one onto the store's. */
final class RocksDbOpener {

    private RocksDbOpener() {}

    static RocksDbStore open(Path dataDir, DurabilityMode durability) {
        DescriptorBudget.warnIfLow(dataDir);
        return RocksDbStore.open(dataDir, Durability.valueOf(durability.name()));
    }
}
