package io.hikyaku.engine.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An ordered group of writes that a {@link Store} applies atomically: after a crash either all of
 * them are present or none is.
 */
public final class StoreBatch {

    /** What one write does. */
    public enum Kind {
        PUT,
        /** Removes a key that may have been written any number of times. */
        DELETE,
        /**
         * Removes a key that was written exactly once since it last did not exist. A store may use a
         * cheaper tombstone (RocksDB SingleDelete) that vanishes together with the put at compaction.
         */
        DELETE_ONCE_WRITTEN
    }

    /** One write. {@code value} is null for deletes. */
    public record Op(Kind kind, Keyspace space, byte[] key, byte[] value) {}

    private final List<Op> ops = new ArrayList<>();

    public StoreBatch put(Keyspace space, byte[] key, byte[] value) {
        ops.add(new Op(Kind.PUT, space, key, value));
        return this;
    }

    public StoreBatch delete(Keyspace space, byte[] key) {
        ops.add(new Op(Kind.DELETE, space, key, null));
        return this;
    }

    public StoreBatch deleteOnceWritten(Keyspace space, byte[] key) {
        ops.add(new Op(Kind.DELETE_ONCE_WRITTEN, space, key, null));
        return this;
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    public int size() {
        return ops.size();
    }

    public List<Op> ops() {
        return Collections.unmodifiableList(ops);
    }
}
