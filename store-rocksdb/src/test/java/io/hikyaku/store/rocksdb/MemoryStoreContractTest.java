package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;

class MemoryStoreContractTest extends StoreContractTest {
    @Override
    protected Store newStore() {
        return new MemoryStore();
    }
}
