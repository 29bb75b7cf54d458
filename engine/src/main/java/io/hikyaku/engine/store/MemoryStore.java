package io.hikyaku.engine.store;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/** A store that keeps everything on the heap and forgets it on exit ({@code --storage memory}). */
public final class MemoryStore implements Store {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final Map<Keyspace, ConcurrentNavigableMap<byte[], byte[]>> spaces = new EnumMap<>(Keyspace.class);

    public MemoryStore() {
        for (Keyspace space : Keyspace.values()) {
            spaces.put(space, new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
        }
    }

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        return spaces.get(space).get(key);
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        for (Map.Entry<byte[], byte[]> e : spaces.get(space).tailMap(prefix, true).entrySet()) {
            byte[] key = e.getKey();
            if (!startsWith(key, prefix) || !visitor.visit(key, e.getValue())) {
                return;
            }
        }
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        for (StoreBatch.Op op : batch.ops()) {
            var map = spaces.get(op.space());
            if (op.kind() == StoreBatch.Kind.PUT) {
                map.put(op.key(), op.value());
            } else {
                map.remove(op.key());
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

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
