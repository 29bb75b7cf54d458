package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@link Store} contract, run against every implementation so the engine cannot tell them apart. */
abstract class StoreContractTest {

    protected Store store;

    protected abstract Store newStore() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    protected static void await(CompletableFuture<Void> f) throws Exception {
        f.get(10, TimeUnit.SECONDS);
    }

    private List<String> keys(Keyspace space, byte[] prefix) {
        List<String> keys = new ArrayList<>();
        store.scan(space, prefix, (k, v) -> keys.add(s(k)));
        return keys;
    }

    @Test
    void scanHeadsVisitsEveryEntryWithItsValueWholeOrCutToTheHead() throws Exception {
        StoreBatch batch = new StoreBatch();
        byte[][] values = {new byte[0], new byte[10], new byte[64], new byte[65], new byte[5000]};
        for (int i = 0; i < values.length; i++) {
            java.util.Arrays.fill(values[i], (byte) (i + 1));
            batch.put(Keyspace.MESSAGES, b("m" + i), values[i]);
        }
        batch.put(Keyspace.MESSAGES, b("x"), b("other prefix"));
        await(store.write(batch));
        List<String> keys = new ArrayList<>();
        store.scanHeads(Keyspace.MESSAGES, b("m"), 64, (k, v) -> {
            byte[] full = values[Integer.parseInt(s(k).substring(1))];
            assertThat(v.length).isIn(full.length, Math.min(full.length, 64));
            assertThat(v).isEqualTo(java.util.Arrays.copyOf(full, v.length));
            keys.add(s(k));
            return true;
        });
        assertThat(keys).containsExactly("m0", "m1", "m2", "m3", "m4");
        List<String> first = new ArrayList<>();
        store.scanHeads(Keyspace.MESSAGES, new byte[0], 64, (k, v) -> first.add(s(k)) && first.size() < 2);
        assertThat(first).containsExactly("m0", "m1");
    }

    @Test
    void scanFromStartsAtTheGivenKeyWithinThePrefix() throws Exception {
        StoreBatch batch = new StoreBatch();
        for (String k : List.of("a9", "m1", "m3", "m5", "m7", "z1")) {
            batch.put(Keyspace.MESSAGES, b(k), b("value-of-" + k + "-" + "x".repeat(100)));
        }
        await(store.write(batch));
        List<String> keys = new ArrayList<>();
        store.scanFrom(Keyspace.MESSAGES, b("m"), b("m4"), 0, (k, v) -> {
            assertThat(s(v)).startsWith("value-of-" + s(k)).hasSize(9 + 2 + 101);
            return keys.add(s(k));
        });
        assertThat(keys).containsExactly("m5", "m7");
        List<String> heads = new ArrayList<>();
        store.scanFrom(Keyspace.MESSAGES, b("m"), b("a"), 16, (k, v) -> { // a start below the prefix: from the prefix
            assertThat(v.length).isIn(16, 9 + 2 + 101);
            return heads.add(s(k)) && heads.size() < 2;
        });
        assertThat(heads).containsExactly("m1", "m3");
    }

    @Test
    void lastKeyIsTheGreatestKeyWithThePrefix() throws Exception {
        StoreBatch batch = new StoreBatch();
        for (String k : List.of("a9", "m1", "m3", "m5", "n", "z1")) {
            batch.put(Keyspace.MESSAGES, b(k), b("v"));
        }
        batch.put(Keyspace.MESSAGES, new byte[] {'q', (byte) 0xff, 1}, b("v"));
        batch.put(Keyspace.MESSAGES, new byte[] {'r'}, b("v"));
        await(store.write(batch));
        assertThat(s(store.lastKey(Keyspace.MESSAGES, b("m")))).isEqualTo("m5");
        assertThat(s(store.lastKey(Keyspace.MESSAGES, b("z")))).isEqualTo("z1");
        assertThat(s(store.lastKey(Keyspace.MESSAGES, b("n")))).isEqualTo("n"); // the prefix itself is a key
        assertThat(store.lastKey(Keyspace.MESSAGES, b("b"))).isNull();
        assertThat(store.lastKey(Keyspace.MESSAGES, b("zz"))).isNull();
        assertThat(store.lastKey(Keyspace.MESSAGES, new byte[] {'q', (byte) 0xff})).containsExactly('q', 0xff, 1);
        assertThat(store.lastKey(Keyspace.QUEUES, b("m"))).isNull();
        await(store.write(new StoreBatch().delete(Keyspace.MESSAGES, b("m5"))));
        assertThat(s(store.lastKey(Keyspace.MESSAGES, b("m")))).isEqualTo("m3"); // written, maybe not applied yet
    }

    @Test
    void getReturnsWhatWasPutAndNullOtherwise() throws Exception {
        await(store.write(new StoreBatch().put(Keyspace.QUEUES, b("q1"), b("v1"))));
        assertThat(s(store.get(Keyspace.QUEUES, b("q1")))).isEqualTo("v1");
        assertThat(store.get(Keyspace.QUEUES, b("q2"))).isNull();
    }

    @Test
    void keyspacesAreSeparate() throws Exception {
        await(store.write(new StoreBatch().put(Keyspace.MESSAGES, b("k"), b("body"))
                .put(Keyspace.MESSAGE_STATE, b("k"), b("state"))));
        assertThat(s(store.get(Keyspace.MESSAGES, b("k")))).isEqualTo("body");
        assertThat(s(store.get(Keyspace.MESSAGE_STATE, b("k")))).isEqualTo("state");
        assertThat(store.get(Keyspace.DEDUP, b("k"))).isNull();
        for (Keyspace space : Keyspace.values()) {
            await(store.write(new StoreBatch().put(space, b("x"), b(space.name()))));
        }
        for (Keyspace space : Keyspace.values()) {
            assertThat(s(store.get(space, b("x")))).isEqualTo(space.name());
        }
    }

    @Test
    void laterPutOverwritesAndDeletesRemove() throws Exception {
        await(store.write(new StoreBatch().put(Keyspace.MESSAGE_STATE, b("m"), b("1"))));
        await(store.write(new StoreBatch().put(Keyspace.MESSAGE_STATE, b("m"), b("2"))));
        assertThat(s(store.get(Keyspace.MESSAGE_STATE, b("m")))).isEqualTo("2");
        await(store.write(new StoreBatch().delete(Keyspace.MESSAGE_STATE, b("m"))));
        assertThat(store.get(Keyspace.MESSAGE_STATE, b("m"))).isNull();
        await(store.write(new StoreBatch().put(Keyspace.MESSAGES, b("once"), b("body"))));
        await(store.write(new StoreBatch().deleteOnceWritten(Keyspace.MESSAGES, b("once"))));
        assertThat(store.get(Keyspace.MESSAGES, b("once"))).isNull();
        assertThat(keys(Keyspace.MESSAGES, new byte[0])).isEmpty();
    }

    @Test
    void scanVisitsKeysInUnsignedByteOrder() throws Exception {
        byte[][] keys = {{(byte) 0xff}, {0x00}, {0x7f}, {(byte) 0x80}, {0x01, 0x02}, {0x01}};
        StoreBatch batch = new StoreBatch();
        for (byte[] k : keys) {
            batch.put(Keyspace.QUEUES, k, k);
        }
        await(store.write(batch));
        List<Integer> firstBytes = new ArrayList<>();
        List<Integer> lengths = new ArrayList<>();
        store.scan(Keyspace.QUEUES, new byte[0], (k, v) -> {
            assertThat(v).isEqualTo(k);
            firstBytes.add(k[0] & 0xff);
            lengths.add(k.length);
            return true;
        });
        assertThat(firstBytes).containsExactly(0x00, 0x01, 0x01, 0x7f, 0x80, 0xff);
        assertThat(lengths).containsExactly(1, 1, 2, 1, 1, 1);
    }

    @Test
    void prefixScanVisitsOnlyMatchingKeysInOrder() throws Exception {
        await(store.write(new StoreBatch()
                .put(Keyspace.MESSAGES, b("a/2"), b("x"))
                .put(Keyspace.MESSAGES, b("a/10"), b("x"))
                .put(Keyspace.MESSAGES, b("a"), b("x"))
                .put(Keyspace.MESSAGES, b("b/1"), b("x"))
                .put(Keyspace.MESSAGES, b("a/1"), b("x"))
                .put(Keyspace.MESSAGES, b("\u0000"), b("x"))));
        assertThat(keys(Keyspace.MESSAGES, b("a/"))).containsExactly("a/1", "a/10", "a/2");
        assertThat(keys(Keyspace.MESSAGES, b("b"))).containsExactly("b/1");
        assertThat(keys(Keyspace.MESSAGES, b("c"))).isEmpty();
        assertThat(keys(Keyspace.MESSAGES, new byte[0])).hasSize(6);
        assertThat(keys(Keyspace.MESSAGES, new byte[] {(byte) 0xff})).isEmpty();
    }

    @Test
    void scanStopsWhenVisitorReturnsFalse() throws Exception {
        StoreBatch batch = new StoreBatch();
        for (int i = 0; i < 10; i++) {
            batch.put(Keyspace.DEDUP, b("k" + i), b("v"));
        }
        await(store.write(batch));
        List<String> seen = new ArrayList<>();
        store.scan(Keyspace.DEDUP, b("k"), (k, v) -> {
            seen.add(s(k));
            return seen.size() < 3;
        });
        assertThat(seen).containsExactly("k0", "k1", "k2");
    }

    @Test
    void batchAppliesAllItsOpsInOrder() throws Exception {
        await(store.write(new StoreBatch().put(Keyspace.HOUSEKEEPING, b("old"), b("1"))));
        await(store.write(new StoreBatch()
                .put(Keyspace.HOUSEKEEPING, b("k"), b("first"))
                .put(Keyspace.HOUSEKEEPING, b("k"), b("second"))
                .delete(Keyspace.HOUSEKEEPING, b("old"))
                .put(Keyspace.META, b("counter"), b("7"))));
        assertThat(s(store.get(Keyspace.HOUSEKEEPING, b("k")))).isEqualTo("second");
        assertThat(store.get(Keyspace.HOUSEKEEPING, b("old"))).isNull();
        assertThat(s(store.get(Keyspace.META, b("counter")))).isEqualTo("7");
    }

    @Test
    void readsSeeBatchesAsSoonAsWriteReturns() throws Exception {
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            futures.add(store.write(new StoreBatch().put(Keyspace.MESSAGES, b(String.format("m%04d", i)), b("v" + i))));
            // Not waiting for durability: the engine reads its own writes immediately.
            assertThat(s(store.get(Keyspace.MESSAGES, b(String.format("m%04d", i))))).isEqualTo("v" + i);
        }
        assertThat(keys(Keyspace.MESSAGES, b("m"))).hasSize(200);
        for (CompletableFuture<Void> f : futures) {
            await(f);
        }
    }

    @Test
    void everyFutureCompletesNormally() throws Exception {
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            futures.add(store.write(new StoreBatch().put(Keyspace.DEDUP, b("d" + i), b("v"))
                    .deleteOnceWritten(Keyspace.DEDUP, b("d" + i))));
        }
        futures.add(store.write(new StoreBatch()));
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(futures).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(keys(Keyspace.DEDUP, new byte[0])).isEmpty();
    }

    @Test
    void emptyValuesAndBinaryKeysRoundTrip() throws Exception {
        byte[] key = {0, (byte) 0xfe, 0, 1};
        await(store.write(new StoreBatch().put(Keyspace.META, key, new byte[0])));
        assertThat(store.get(Keyspace.META, key)).isEmpty();
        assertThat(store.get(Keyspace.META, new byte[] {0, (byte) 0xfe, 0})).isNull();
    }
}
