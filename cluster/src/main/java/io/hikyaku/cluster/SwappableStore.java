package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The node's own store under the replication, which an installed snapshot replaces as a whole: every
 * call goes to the store in use, and {@link #swap} waits for calls in progress, so that no call sees
 * a store being closed. Writes come only from apply, which Ratis pauses around the swap.
 */
final class SwappableStore implements Store {

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile Store store;

    SwappableStore(Store store) {
        this.store = store;
    }

    /** Runs {@code replace} (which closes the old store and opens the new one) with no call in progress. */
    void swap(Supplier<Store> replace) {
        lock.writeLock().lock();
        try {
            store = replace.get();
        } finally {
            lock.writeLock().unlock();
        }
    }

    Store current() {
        return store;
    }

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        lock.readLock().lock();
        try {
            return store.get(space, key);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        lock.readLock().lock();
        try {
            store.scan(space, prefix, visitor);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        lock.readLock().lock();
        try {
            store.scanHeads(space, prefix, headBytes, visitor);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        lock.readLock().lock();
        try {
            store.scanFrom(space, prefix, from, headBytes, visitor);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        lock.readLock().lock();
        try {
            return store.lastKey(space, prefix);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        lock.readLock().lock();
        try {
            return store.write(batch);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public boolean resume() {
        return store.resume();
    }

    @Override
    public boolean isEphemeral() {
        return store.isEphemeral();
    }

    /** The owner of the stores (ReplicaDirectory) closes them. */
    @Override
    public void close() {}
}
