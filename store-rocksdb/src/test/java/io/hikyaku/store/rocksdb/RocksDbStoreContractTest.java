package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Store;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

class RocksDbStoreContractTest extends StoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected Store newStore() {
        return RocksDbStore.open(dir.resolve("data"), Durability.FSYNC);
    }
}
