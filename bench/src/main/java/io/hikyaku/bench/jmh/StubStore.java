package io.hikyaku.bench.jmh;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;

import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The store stubbed out for engine microbenchmarks: plain hash maps, writes applied at once and
 * "durable" immediately, no ordering (the hot paths only get by exact key; scan is for start-up).
 */
final class StubStore implements Store {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private final Map<Keyspace, Map<ByteBuffer, byte[]>> spaces = new EnumMap<>(Keyspace.class);
    /** False: writes are forgotten (to measure the engine's own heap, as RocksDB keeps bodies off it). */
    private final boolean keeps;

    StubStore() {
        this(true);
    }

    private StubStore(boolean keeps) {
        this.keeps = keeps;
        for (Keyspace k : Keyspace.values()) {
            spaces.put(k, new HashMap<>());
        }
    }

    /** A store that forgets every write; reads find nothing (receives of fresh messages use the body cache). */
    static StubStore discarding() {
        return new StubStore(false);
    }

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        return spaces.get(space).get(ByteBuffer.wrap(key));
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        // Benchmarks start from an empty store: nothing to load.
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        if (!keeps) {
            return DONE;
        }
        for (StoreBatch.Op op : batch.ops()) {
            Map<ByteBuffer, byte[]> m = spaces.get(op.space());
            if (op.kind() == StoreBatch.Kind.PUT) {
                m.put(ByteBuffer.wrap(op.key()), op.value());
            } else {
                m.remove(ByteBuffer.wrap(op.key()));
            }
        }
        return DONE;
    }

    @Override
    public boolean isEphemeral() {
        return true;
    }

    @Override
    public void close() {
        spaces.values().forEach(Map::clear);
    }
}
