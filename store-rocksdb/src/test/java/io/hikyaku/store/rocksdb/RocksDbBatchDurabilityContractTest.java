package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Store;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The contract holds whatever the durability level: only the timing of futures differs. */
class RocksDbBatchDurabilityContractTest extends StoreContractTest {
    @TempDir
    Path dir;

    @Override
    protected Store newStore() {
        return RocksDbStore.open(dir.resolve("data"), Durability.BATCH);
    }
}
