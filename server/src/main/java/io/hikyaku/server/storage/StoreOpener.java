package io.hikyaku.server.storage;

import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.server.ServerConfig;

/** Opens the store the configuration asks for. */
public final class StoreOpener {

    private StoreOpener() {}

    public static Store open(ServerConfig config) {
        return switch (config.storage()) {
            case MEMORY -> new MemoryStore();
            case ROCKSDB -> RocksDbOpener.open(config.dataDir(), config.durability());
        };
    }
}
