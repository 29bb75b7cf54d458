package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replicated store's reads (pending writes merged over the committed inner store) against a
 * plain MemoryStore that applies every written batch at once; the inner store against one that
 * applies only committed batches. Random batches of puts, deletes and tombstones over keys that
 * exercise unsigned order (0x00, 0xff), committed in random-sized prefixes. No Ratis: a fake log.
 */
class OverlayModelTest {

    private static final Keyspace[] SPACES = {Keyspace.MESSAGES, Keyspace.QUEUES};
    private static final byte[] ALPHABET = {0x00, 0x61, 0x62, (byte) 0xff};
    private static final byte[][] PREFIXES = {{}, {0x61}, {(byte) 0xff}, {0x61, (byte) 0xff}, {(byte) 0xff, (byte) 0xff}, {0x00}};

    /** Proposed entries not yet "committed". */
    private record Proposed(long callId, byte[] entry, CompletableFuture<Object> answered) {}

    @Test
    void readsMergePendingWritesAndTombstonesOverCommittedOnes() {
        for (long seed = 1; seed <= 30; seed++) {
            run(seed);
        }
    }

    private void run(long seed) {
        Random random = new Random(seed);
        List<byte[]> keys = allKeys();
        MemoryStore inner = new MemoryStore();
        MemoryStore everything = new MemoryStore();
        MemoryStore committed = new MemoryStore();
        ArrayDeque<Proposed> log = new ArrayDeque<>();
        ArrayDeque<StoreBatch> uncommittedBatches = new ArrayDeque<>();
        // odd seeds pipeline every batch at once (several entries in flight), even ones pace adaptively
        ReplicatedStore store = seed % 2 == 1 ? new ReplicatedStore(inner, 60_000, 1) : new ReplicatedStore(inner, 60_000);
        store.start((callId, entry) -> {
            CompletableFuture<Object> answered = new CompletableFuture<>();
            synchronized (log) {
                log.add(new Proposed(callId, entry, answered));
            }
            return answered;
        }, () -> true);
        assertThat(store.resume()).isTrue();
        long index = 0;
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        try {
            for (int step = 0; step < 300; step++) {
                StoreBatch b = new StoreBatch();
                int ops = 1 + random.nextInt(4);
                for (int i = 0; i < ops; i++) {
                    Keyspace space = SPACES[random.nextInt(SPACES.length)];
                    byte[] key = keys.get(random.nextInt(keys.size()));
                    int kind = random.nextInt(10);
                    if (kind < 6) {
                        b.put(space, key, ("v" + seed + "." + step + "." + i).getBytes());
                    } else if (kind < 8) {
                        b.delete(space, key);
                    } else {
                        b.deleteOnceWritten(space, key);
                    }
                }
                futures.add(store.write(b));
                everything.write(b);
                uncommittedBatches.add(b);
                if (random.nextInt(4) == 0) {
                    index = commitSome(store, log, random.nextInt(4), index, committed, uncommittedBatches);
                }
                compareReads(store, everything, keys, random, seed, step);
                compareAll(inner, committed, seed, step);
            }
            index = commitAll(store, log, futures.size(), index, committed, uncommittedBatches);
            compareReads(store, everything, keys, random, seed, -1);
            compareAll(inner, everything, seed, -1);
            assertThat(store.pendingKeys()).as("overlay drained").isZero();
            assertThat(futures).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
            assertThat(store.stats().batchesApplied()).isEqualTo(futures.size());
        } finally {
            store.close();
        }
    }

    /** Commits entries as the batcher proposes them until every batch is applied. */
    @Test
    void aBatchTooBigForOneEntryFailsAndStopsLaterWrites() {
        ReplicatedStore store = new ReplicatedStore(new MemoryStore(), 60_000);
        store.start((callId, entry) -> new CompletableFuture<>(), () -> true);
        try {
            assertThat(store.resume()).isTrue();
            StoreBatch big = new StoreBatch().put(Keyspace.MESSAGES, new byte[] {1}, new byte[ReplicatedStore.MAX_BATCH_BYTES]);
            assertThat(store.write(big)).isCompletedExceptionally();
            assertThat(store.write(new StoreBatch().put(Keyspace.MESSAGES, new byte[] {2}, new byte[] {2}))).isCompletedExceptionally();
            assertThat(store.get(Keyspace.MESSAGES, new byte[] {1})).isNull();
            assertThat(store.resume()).isTrue(); // nothing in flight: the engine above reloads and goes on
            assertThat(store.write(new StoreBatch().put(Keyspace.MESSAGES, new byte[] {3}, new byte[] {3}))).isNotDone();
        } finally {
            store.close();
        }
    }

    private static long commitAll(ReplicatedStore store, ArrayDeque<Proposed> log, int batches, long index,
                                  MemoryStore committed, ArrayDeque<StoreBatch> uncommitted) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (store.stats().batchesApplied() < batches) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("batches not applied: " + store.stats());
            }
            index = commitSome(store, log, Integer.MAX_VALUE, index, committed, uncommitted);
            Thread.onSpinWait();
        }
        return index;
    }

    /** Commits (applies, then answers) up to {@code count} proposed entries in order. */
    private static long commitSome(ReplicatedStore store, ArrayDeque<Proposed> log, int count, long index,
                                   MemoryStore committed, ArrayDeque<StoreBatch> uncommitted) {
        for (int i = 0; i < count; i++) {
            Proposed p;
            synchronized (log) {
                p = log.poll();
            }
            if (p == null) {
                return index;
            }
            List<StoreBatch> batches = EntryCodec.decode(ByteBuffer.wrap(p.entry()));
            store.apply(1, ++index, p.callId(), ByteBuffer.wrap(p.entry()));
            for (int j = 0; j < batches.size(); j++) {
                committed.write(uncommitted.poll());
            }
            p.answered().complete(null);
        }
        return index;
    }

    private static void compareReads(Store store, Store model, List<byte[]> keys, Random random, long seed, int step) {
        String at = "seed " + seed + " step " + step;
        for (Keyspace space : SPACES) {
            for (byte[] key : keys) {
                assertThat(hex(store.get(space, key))).as(at + " get " + hex(key)).isEqualTo(hex(model.get(space, key)));
            }
            for (byte[] prefix : PREFIXES) {
                assertThat(scan(store, space, prefix, Integer.MAX_VALUE)).as(at + " scan " + hex(prefix))
                        .isEqualTo(scan(model, space, prefix, Integer.MAX_VALUE));
                int stopAfter = 1 + random.nextInt(5);
                assertThat(scan(store, space, prefix, stopAfter)).as(at + " scan stopping " + hex(prefix))
                        .isEqualTo(scan(model, space, prefix, stopAfter));
                assertThat(heads(store, space, prefix)).as(at + " scanHeads " + hex(prefix)).isEqualTo(heads(model, space, prefix));
                byte[] from = keys.get(random.nextInt(keys.size()));
                assertThat(scanFrom(store, space, prefix, from)).as(at + " scanFrom " + hex(prefix) + " " + hex(from))
                        .isEqualTo(scanFrom(model, space, prefix, from));
                if (prefix.length > 0) {
                    assertThat(hex(store.lastKey(space, prefix))).as(at + " lastKey " + hex(prefix))
                            .isEqualTo(hex(model.lastKey(space, prefix)));
                }
            }
        }
    }

    private static void compareAll(Store actual, Store model, long seed, int step) {
        for (Keyspace space : SPACES) {
            assertThat(scan(actual, space, new byte[0], Integer.MAX_VALUE)).as("seed " + seed + " step " + step + " inner " + space)
                    .isEqualTo(scan(model, space, new byte[0], Integer.MAX_VALUE));
        }
    }

    private static List<String> scan(Store s, Keyspace space, byte[] prefix, int max) {
        List<String> out = new ArrayList<>();
        s.scan(space, prefix, (k, v) -> {
            out.add(hex(k) + "=" + hex(v));
            return out.size() < max;
        });
        return out;
    }

    private static List<String> heads(Store s, Keyspace space, byte[] prefix) {
        List<String> out = new ArrayList<>();
        s.scanHeads(space, prefix, 2, (k, v) -> {
            out.add(hex(k) + "=" + hex(Arrays.copyOf(v, Math.min(2, v.length))));
            return true;
        });
        return out;
    }

    private static List<String> scanFrom(Store s, Keyspace space, byte[] prefix, byte[] from) {
        List<String> out = new ArrayList<>();
        s.scanFrom(space, prefix, from, 0, (k, v) -> {
            out.add(hex(k) + "=" + hex(v));
            return true;
        });
        return out;
    }

    private static List<byte[]> allKeys() {
        List<byte[]> keys = new ArrayList<>();
        for (byte a : ALPHABET) {
            keys.add(new byte[] {a});
            for (byte b : ALPHABET) {
                keys.add(new byte[] {a, b});
                for (byte c : ALPHABET) {
                    keys.add(new byte[] {a, b, c});
                }
            }
        }
        return keys;
    }

    private static String hex(byte[] b) {
        return b == null ? "null" : HexFormat.of().formatHex(b);
    }
}
