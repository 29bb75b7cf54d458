package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Disk full without root: RocksDB's own SST space quota fails flushes exactly like ENOSPC does, puts
 * the database into its background-error state, and must be recovered from once space returns.
 */
class SpaceLimitTest {

    @TempDir
    Path tmp;

    @Test
    void writesFailWithStoreExceptionBeyondTheQuotaAndResumeWhenItIsRaised() throws Exception {
        RocksDbStoreOptions options = RocksDbStoreOptions.defaults().withWriteBuffers(128 * 1024, 512 * 1024)
                .withMaxSpaceBytes(1 << 20);
        Path dir = tmp.resolve("data");
        List<byte[]> acknowledged = new ArrayList<>();
        try (RocksDbStore store = RocksDbStore.open(dir, options)) {
            Throwable failure = null;
            for (int i = 0; i < 2_000 && failure == null; i++) {
                byte[] value = new byte[4096];
                ThreadLocalRandom.current().nextBytes(value);
                try {
                    store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m" + i), value)).get(10, TimeUnit.SECONDS);
                    acknowledged.add(value);
                } catch (ExecutionException e) {
                    failure = e.getCause();
                }
            }
            assertThat(failure).as("the quota was never hit").isInstanceOf(StoreException.class)
                    .hasMessageContaining("Max allowed space was reached");
            assertAll(store, acknowledged);

            store.setMaxSpaceBytes(0);
            // Fail-stop: after a failure nothing is applied until resume() says the store is whole again.
            Throwable refused = store.write(new StoreBatch().put(Keyspace.META, b("refused"), b("x")))
                    .handle((v, e) -> e).get(10, TimeUnit.SECONDS);
            assertThat(refused).isInstanceOf(StoreException.class).hasMessageContaining("not written");
            assertThat(store.get(Keyspace.META, b("refused"))).isNull();
            boolean resumed = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!resumed && System.nanoTime() < deadline) {
                resumed = store.resume();
                if (!resumed) {
                    Thread.sleep(100);
                }
            }
            assertThat(resumed).as("the store resumes once the quota is raised").isTrue();
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("quota"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, options.withMaxSpaceBytes(0))) {
            assertAll(store, acknowledged);
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
        RocksDbStoreOptions options = RocksDbStoreOptions.defaults().withWriteBuffers(128 * 1024, 512 * 1024)
                .withMaxSpaceBytes(1 << 20);
        Path dir = tmp.resolve("reopen");
        List<byte[]> acknowledged = new ArrayList<>();
        try (RocksDbStore store = RocksDbStore.open(dir, options)) {
            Throwable failure = null;
            int i = 0;
            for (; i < 2_000 && failure == null; i++) {
                byte[] value = new byte[4096];
                ThreadLocalRandom.current().nextBytes(value);
                try {
                    store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m" + i), value)).get(10, TimeUnit.SECONDS);
                    acknowledged.add(value);
                } catch (ExecutionException e) {
                    failure = e.getCause();
                }
            }
            assertThat(failure).as("the quota was never hit").isInstanceOf(StoreException.class);
            int refused = i - 1;
            store.setMaxSpaceBytes(0);
            store.reopenOnNextResume();
            assertThat(store.resume()).as("resumed by reopening").isTrue();
            assertAll(store, acknowledged);
            assertThat(store.get(Keyspace.MESSAGES, b("m" + refused))).as("the refused batch").isNull();
            store.write(new StoreBatch().put(Keyspace.META, b("after"), b("reopen"))).get(10, TimeUnit.SECONDS);
        }
        try (RocksDbStore store = RocksDbStore.open(dir, options.withMaxSpaceBytes(0))) {
            assertAll(store, acknowledged);
            assertThat(store.get(Keyspace.META, b("after"))).isEqualTo(b("reopen"));
        }
    }

    private static void assertAll(RocksDbStore store, List<byte[]> acknowledged) {
        for (int i = 0; i < acknowledged.size(); i++) {
            assertThat(store.get(Keyspace.MESSAGES, b("m" + i))).as("m" + i).isEqualTo(acknowledged.get(i));
        }
    }
}
