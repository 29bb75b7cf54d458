package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import io.hikyaku.store.rocksdb.FillUntilFailure.Filled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.hikyaku.store.rocksdb.FillUntilFailure.assertAcknowledged;
import static io.hikyaku.store.rocksdb.FillUntilFailure.assertRefusesWrites;
import static io.hikyaku.store.rocksdb.FillUntilFailure.fill;
import static io.hikyaku.store.rocksdb.FillUntilFailure.resumes;
import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Disk full without root: RocksDB's own SST space quota fails flushes exactly like ENOSPC does, puts
 * the database into its background-error state, and must be recovered from once space returns.
 */
class SpaceLimitTest {

    private static final RocksDbStoreOptions OPTIONS = RocksDbStoreOptions.defaults().withWriteBuffers(128 * 1024, 512 * 1024)
            .withMaxSpaceBytes(1 << 20);

    @TempDir
    Path tmp;

    private static byte[] random4k(int i) {
        byte[] value = new byte[4096];
        ThreadLocalRandom.current().nextBytes(value);
        return value;
    }

    @Test
    void writesFailWithStoreExceptionBeyondTheQuotaAndResumeWhenItIsRaised() throws Exception {
        Path dir = tmp.resolve("data");
        Filled filled;
        try (RocksDbStore store = RocksDbStore.open(dir, OPTIONS)) {
            filled = fill(store, 2_000, SpaceLimitTest::random4k);
            assertThat(filled.failure()).as("the quota was never hit").isInstanceOf(StoreException.class)
                    .hasMessageContaining("Max allowed space was reached");
            assertAcknowledged(store, filled.acknowledged());

            store.setMaxSpaceBytes(0);
            assertRefusesWrites(store);
            assertThat(resumes(store)).as("the store resumes once the quota is raised").isTrue();
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("quota"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, OPTIONS.withMaxSpaceBytes(0))) {
            assertAcknowledged(store, filled.acknowledged());
            assertThat(store.get(Keyspace.META, b("after"))).isEqualTo(b("quota"));
        }
    }

    /**
     * The reopen path of resume(): when RocksDB does not leave its background-error state by itself,
     * the store closes and reopens the database; everything acknowledged is there, the refused
     * batches are not, and writes work again.
     */
    @Test
    void resumeReopensTheDatabaseWhenRocksDbDoesNotRecoverByItself() throws Exception {
        Path dir = tmp.resolve("reopen");
        Filled filled;
        try (RocksDbStore store = RocksDbStore.open(dir, OPTIONS)) {
            filled = fill(store, 2_000, SpaceLimitTest::random4k);
            assertThat(filled.failure()).as("the quota was never hit").isInstanceOf(StoreException.class);
            store.setMaxSpaceBytes(0);
            store.reopenOnNextResume();
            assertThat(store.resume()).as("resumed by reopening").isTrue();
            assertAcknowledged(store, filled.acknowledged());
            assertThat(store.get(Keyspace.MESSAGES, filled.failedKey())).as("the refused batch").isNull();
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("reopen"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, OPTIONS.withMaxSpaceBytes(0))) {
            assertAcknowledged(store, filled.acknowledged());
            assertThat(store.get(Keyspace.META, b("after"))).isEqualTo(b("reopen"));
        }
    }
}
