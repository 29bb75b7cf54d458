package io.hikyaku.engine.store;

import java.util.concurrent.CompletableFuture;

/**
 * A store that passes every call to another ({@link #delegate()}): the base of decorators, which
 * override only what they add. Store's defaults are forwarded too, not inherited: the delegate's own
 * versions seek where the defaults walk, and a decorator that fell back to them would make start-up
 * and page-ins walk whole prefixes.
 */
public abstract class ForwardingStore implements Store {

    /** The store calls go to; may change between calls (a test swaps a reopened store in). */
    protected abstract Store delegate();

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        return delegate().get(space, key);
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        delegate().scan(space, prefix, visitor);
    }

    @Override
    public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        delegate().scanHeads(space, prefix, headBytes, visitor);
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        delegate().scanFrom(space, prefix, from, headBytes, visitor);
    }

    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        return delegate().lastKey(space, prefix);
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        return delegate().write(batch);
    }

    @Override
    public boolean resume() {
        return delegate().resume();
    }

    @Override
    public boolean isEphemeral() {
        return delegate().isEphemeral();
    }

    @Override
    public void close() {
        delegate().close();
    }
}
