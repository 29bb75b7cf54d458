package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The leader's writes that are not committed yet: per keyspace, each key's latest pending value or
 * tombstone with the sequence number of that write. Reads of the replicated store look here first,
 * so the engine sees its own writes at once while the inner store holds only committed ones.
 *
 * <p>Written by the one writer (under the store's write lock), settled by the apply thread, read by
 * any thread. An entry is dropped only after its batch is in the inner store, so a reader that misses
 * it finds the value there.
 */
final class Overlay {

    /** One key's latest pending write: {@code value} null is a tombstone. */
    record Pending(byte[] value, long seq) {
        boolean isTombstone() {
            return value == null;
        }
    }

    private final Map<Keyspace, ConcurrentSkipListMap<byte[], Pending>> spaces = new EnumMap<>(Keyspace.class);

    Overlay() {
        for (Keyspace space : Keyspace.values()) {
            spaces.put(space, new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
        }
    }

    /** Records the writes of the batch numbered {@code seq} (later ones override earlier ones). */
    void add(StoreBatch batch, long seq) {
        for (StoreBatch.Op op : batch.ops()) {
            spaces.get(op.space()).put(op.key(), new Pending(op.kind() == StoreBatch.Kind.PUT ? op.value() : null, seq));
        }
    }

    /**
     * After batches up to {@code upToSeq} reached the inner store: drops the keys of {@code batch}
     * unless a later pending write to the key exists.
     */
    void settle(StoreBatch batch, long upToSeq) {
        for (StoreBatch.Op op : batch.ops()) {
            spaces.get(op.space()).computeIfPresent(op.key(), (k, p) -> p.seq() <= upToSeq ? null : p);
        }
    }

    void clear() {
        spaces.values().forEach(Map::clear);
    }

    boolean isEmpty() {
        return spaces.values().stream().allMatch(Map::isEmpty);
    }

    int size() {
        return spaces.values().stream().mapToInt(Map::size).sum();
    }

    Pending get(Keyspace space, byte[] key) {
        return spaces.get(space).get(key);
    }

    /**
     * A copy of the pending writes of keys that start with {@code prefix} and are not below
     * {@code from}, in key order (a copy, so that a scan merges one consistent view: taken before the
     * inner store is read, it holds every write that the inner store could still lack).
     */
    List<Map.Entry<byte[], Pending>> range(Keyspace space, byte[] prefix, byte[] from) {
        ConcurrentSkipListMap<byte[], Pending> map = spaces.get(space);
        if (map.isEmpty()) {
            return List.of();
        }
        byte[] start = Arrays.compareUnsigned(from, prefix) > 0 ? from : prefix;
        byte[] above = Store.successor(prefix);
        if (above != null && Arrays.compareUnsigned(start, above) >= 0) {
            return List.of();
        }
        Map<byte[], Pending> sub = above == null || prefix.length == 0
                ? map.tailMap(start, true) : map.subMap(start, true, above, false);
        List<Map.Entry<byte[], Pending>> copy = new ArrayList<>();
        for (Map.Entry<byte[], Pending> e : sub.entrySet()) {
            copy.add(Map.entry(e.getKey(), e.getValue()));
        }
        return copy;
    }
}
