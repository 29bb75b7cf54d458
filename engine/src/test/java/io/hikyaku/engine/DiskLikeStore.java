package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.concurrent.CompletableFuture;

/**
 * A MemoryStore that says it is not ephemeral, as RocksDbStore does, so the engine spills past its
 * index budget instead of refusing sends. Counts the ops of the batches written, for bounded-work checks.
 */
final class DiskLikeStore implements Store {
    final MemoryStore inner = new MemoryStore();
    /** The most ops any one written batch held. */
    int largestBatch;
    /** MESSAGES entries handed to scan visitors: what a reader walked. */
    long messageKeysVisited;

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        return inner.get(space, key);
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        inner.scan(space, prefix, counting(space, visitor));
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        inner.scanFrom(space, prefix, from, headBytes, counting(space, visitor));
    }

    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        return inner.lastKey(space, prefix);
    }

    private EntryVisitor counting(Keyspace space, EntryVisitor visitor) {
        if (space != Keyspace.MESSAGES) {
            return visitor;
        }
        return (k, v) -> {
            messageKeysVisited++;
            return visitor.visit(k, v);
        };
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        largestBatch = Math.max(largestBatch, batch.size());
        return inner.write(batch);
    }

    /** Keys of {@code space}. */
    int count(Keyspace space) {
        int[] n = {0};
        inner.scan(space, new byte[0], (k, v) -> {
            n[0]++;
            return true;
        });
        return n[0];
    }

    @Override
    public boolean isEphemeral() {
        return false;
    }

    @Override
    public void close() {
        inner.close();
    }
}
