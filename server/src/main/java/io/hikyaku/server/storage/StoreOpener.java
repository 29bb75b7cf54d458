package io.hikyaku.server.storage;

import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.store.rocksdb.RocksDbStore;

/** Opens the store the configuration asks for. */
public final class StoreOpener {

    private StoreOpener() {}

    public static OpenedStore open(ServerConfig config) {
        return switch (config.storage()) {
            case MEMORY -> new OpenedStore(new StoreHealth(MemoryStore.forServing()), null, null);
            case ROCKSDB -> {
                RocksDbStore store = RocksDbOpener.open(config.dataDir(), config.durability());
                yield new OpenedStore(new StoreHealth(store), store::checkpoint, store);
            }
        };
    }
}
