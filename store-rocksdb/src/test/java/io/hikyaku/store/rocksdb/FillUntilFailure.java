package io.hikyaku.store.rocksdb;

import static io.hikyaku.store.rocksdb.StoreContractTest.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The steps the out-of-space tests share: write messages {@code m0, m1, ...} until a write fails,
 * check that what was acknowledged is there, that the failed store refuses later writes, and wait for
 * it to resume.
 */
final class FillUntilFailure {

    /** The values acknowledged, {@code m0} first, and the failure that stopped the writes (null: none). */
    record Filled(List<byte[]> acknowledged, Throwable failure) {
        /** The key of the write that failed. */
        byte[] failedKey() {
            return b("m" + acknowledged.size());
        }
    }

    private FillUntilFailure() {}

    /** Writes {@code value.apply(i)} under {@code m<i>}, one batch each, until one fails or {@code maxWrites}. */
    static Filled fill(RocksDbStore store, int maxWrites, IntFunction<byte[]> value) throws Exception {
        List<byte[]> acknowledged = new ArrayList<>();
        for (int i = 0; i < maxWrites; i++) {
            byte[] v = value.apply(i);
            try {
                store.write(new StoreBatch().put(Keyspace.MESSAGES, b("m" + i), v)).get(10, TimeUnit.SECONDS);
                acknowledged.add(v);
            } catch (ExecutionException e) {
                return new Filled(acknowledged, e.getCause());
            }
        }
        return new Filled(acknowledged, null);
    }

    static void assertAcknowledged(RocksDbStore store, List<byte[]> acknowledged) {
        for (int i = 0; i < acknowledged.size(); i++) {
            assertThat(store.get(Keyspace.MESSAGES, b("m" + i))).as("m" + i).isEqualTo(acknowledged.get(i));
        }
    }

    /** Fail-stop: after a failure nothing is applied until resume() says the store is whole again. */
    static void assertRefusesWrites(RocksDbStore store) throws Exception {
        Throwable refused = store.write(new StoreBatch().put(Keyspace.META, b("refused"), b("x")))
                .handle((v, e) -> e).get(10, TimeUnit.SECONDS);
        assertThat(refused).isInstanceOf(StoreException.class).hasMessageContaining("not written");
        assertThat(store.get(Keyspace.META, b("refused"))).isNull();
    }

    /** Calls resume() until it succeeds, for at most 20 s; whether it did. */
    static boolean resumes(RocksDbStore store) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (store.resume()) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }
}
