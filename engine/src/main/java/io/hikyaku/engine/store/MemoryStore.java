package io.hikyaku.engine.store;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A store that keeps everything on the heap and forgets it on exit. {@link #MemoryStore()} keeps
 * every keyspace, so an engine can be loaded from it again (tests restart engines on one);
 * {@link #forServing()} is what {@code --storage memory} uses.
 */
public final class MemoryStore implements Store {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /** The kept keyspaces; writes to any other are dropped, and reads of it find nothing. */
    private final Map<Keyspace, ConcurrentNavigableMap<byte[], byte[]>> spaces = new EnumMap<>(Keyspace.class);

    /** Keeps every keyspace. */
    public MemoryStore() {
        this(EnumSet.allOf(Keyspace.class));
    }

    private MemoryStore(Set<Keyspace> kept) {
        for (Keyspace space : kept) {
            spaces.put(space, new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
        }
    }

    /**
     * For a server's one life: keeps only the keyspaces the engine reads while it serves (bodies).
     * The rest (receive state, FIFO deduplication entries, queue records) would only be read by a
     * loader, and this store is never loaded again. Keeping them cost a second copy of all that
     * state, and FIFO sends paid for inserting their random deduplication keys into a sorted map
     * (the largest single cost of a FIFO send in memory mode, and five minutes of entries on the heap).
     */
    public static MemoryStore forServing() {
        EnumSet<Keyspace> kept = EnumSet.noneOf(Keyspace.class);
        for (Keyspace space : Keyspace.values()) {
            if (space.readWhileServing()) {
                kept.add(space);
            }
        }
        return new MemoryStore(kept);
    }

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        var map = spaces.get(space);
        return map == null ? null : map.get(key);
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        var map = spaces.get(space);
        if (map == null) {
            return;
        }
        for (Map.Entry<byte[], byte[]> e : map.tailMap(prefix, true).entrySet()) {
            byte[] key = e.getKey();
            if (!startsWith(key, prefix) || !visitor.visit(key, e.getValue())) {
                return;
            }
        }
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        var map = spaces.get(space);
        if (map == null) {
            return;
        }
        byte[] start = Arrays.compareUnsigned(from, prefix) > 0 ? from : prefix;
        for (Map.Entry<byte[], byte[]> e : map.tailMap(start, true).entrySet()) {
            byte[] key = e.getKey();
            if (!startsWith(key, prefix) || !visitor.visit(key, e.getValue())) {
                return;
            }
        }
    }

    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        var map = spaces.get(space);
        if (map == null) {
            return null;
        }
        byte[] above = Store.successor(prefix);
        var below = above == null ? map : map.headMap(above, false);
        byte[] key = below.isEmpty() ? null : below.lastKey();
        return key != null && startsWith(key, prefix) ? key : null;
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        for (StoreBatch.Op op : batch.ops()) {
            var map = spaces.get(op.space());
            if (map == null) {
                continue;
            }
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
