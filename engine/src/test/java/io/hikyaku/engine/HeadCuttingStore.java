package io.hikyaku.engine;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import java.util.Arrays;

/**
 * A store that, like RocksDbStore, passes {@link #scanHeads} and {@link #scanFrom} values cut to
 * the head length, and counts its point reads, its whole-value seeks of MESSAGES and the message
 * heads it cut (cuts to a length below a message head, key-only reads, are not counted).
 */
final class HeadCuttingStore extends ForwardingStore {
    private final Store inner;
    int cut;
    int gets;
    /** Seeks of MESSAGES that pass whole values (the receive's read-ahead). */
    int wholeMessageScans;

    HeadCuttingStore(Store inner) {
        this.inner = inner;
    }

    @Override
    protected Store delegate() {
        return inner;
    }

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        gets++;
        return inner.get(space, key);
    }

    @Override
    public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        inner.scan(space, prefix, cutting(headBytes, visitor));
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        if (space == Keyspace.MESSAGES && headBytes == 0) {
            wholeMessageScans++;
        }
        inner.scanFrom(space, prefix, from, 0, headBytes > 0 ? cutting(headBytes, visitor) : visitor);
    }

    private EntryVisitor cutting(int headBytes, EntryVisitor visitor) {
        return (k, v) -> {
            if (v.length > headBytes) {
                if (headBytes >= StoredMessage.HEAD_BYTES) {
                    cut++;
                }
                return visitor.visit(k, Arrays.copyOf(v, headBytes));
            }
            return visitor.visit(k, v);
        };
    }
}
