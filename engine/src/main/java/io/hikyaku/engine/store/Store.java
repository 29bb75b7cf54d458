package io.hikyaku.engine.store;

import java.util.concurrent.CompletableFuture;

/**
 * Where the engine keeps its state. A store is a set of ordered key-value spaces ({@link Keyspace})
 * with atomic batches; the engine decides what the keys and values mean.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #write} is called by one thread at a time (the engine serialises its commands) and
 *       applies batches in call order.</li>
 *   <li>Reads ({@link #get}, {@link #scan}) see every batch passed to {@code write} before them,
 *       even one that is not yet durable.</li>
 *   <li>The future returned by {@code write} completes when that batch is as durable as the
 *       store's durability level promises (for the default level: fsynced). Callers acknowledge the
 *       client only then. Stores should group concurrent batches into one fsync.</li>
 *   <li>If a batch cannot be persisted (disk full, I/O error) the future completes exceptionally
 *       with a {@link StoreException}; the store stays usable for later batches once the cause is
 *       gone and {@link #resume()} has said so.</li>
 *   <li>Fail-stop: once a batch fails, every batch written after it fails too (none is applied),
 *       until {@link #resume()} returns true. A later batch may depend on an earlier one (a receive
 *       of a message whose send failed), so none may land on disk without the batches before it.</li>
 * </ul>
 */
public interface Store extends AutoCloseable {

    /** The value stored under {@code key}, or null. */
    byte[] get(Keyspace space, byte[] key);

    /**
     * Visits every entry of {@code space} whose key starts with {@code prefix} (empty = all), in
     * unsigned byte order of keys. Used at start-up to rebuild in-memory indexes.
     */
    void scan(Keyspace space, byte[] prefix, EntryVisitor visitor);

    /**
     * Like {@link #scan}, but a value longer than {@code headBytes} may be passed cut to its first
     * {@code headBytes} bytes: for visitors that decode only a header (the loader reads message
     * heads, not bodies). Stores that keep values on the heap may pass them whole.
     */
    default void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        scan(space, prefix, visitor);
    }

    /**
     * Like {@link #scanHeads} over the keys that start with {@code prefix} and are not below
     * {@code from} (unsigned byte order), so a reader can resume where it stopped without
     * visiting what lies before: the engine pages a queue's spilled tail in with it, and cleans up
     * purged ranges in chunks. {@code headBytes} 0 passes whole values. Stores should seek to
     * {@code from}; this default walks the prefix from its start.
     */
    default void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        EntryVisitor skipping = (k, v) -> java.util.Arrays.compareUnsigned(k, from) < 0 || visitor.visit(k, v);
        if (headBytes > 0) {
            scanHeads(space, prefix, headBytes, skipping);
        } else {
            scan(space, prefix, skipping);
        }
    }

    /**
     * The greatest key of {@code space} that starts with {@code prefix} (non-empty), or null: the
     * engine reads a queue's last stored seq with it at start-up instead of walking its backlog.
     * Stores should seek backwards; this default walks the prefix.
     */
    default byte[] lastKey(Keyspace space, byte[] prefix) {
        byte[][] last = new byte[1][];
        scanHeads(space, prefix, 1, (k, v) -> {
            last[0] = k;
            return true;
        });
        return last[0];
    }

    /**
     * The least key greater than every key that starts with {@code prefix} (unsigned order), or
     * null when there is none (the prefix is all 0xff bytes).
     */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] next = java.util.Arrays.copyOf(prefix, i + 1);
                next[i]++;
                return next;
            }
        }
        return null;
    }

    /** Applies {@code batch} atomically; see the class comment for durability. */
    CompletableFuture<Void> write(StoreBatch batch);

    /**
     * After a failed write: tries to accept writes again. Returns true only when every batch the
     * store applied (including ones whose fsync failed, {@link StoreException#outcomeUnknown()}) is
     * now durable and a new write succeeded; batches written before this call and not yet applied
     * are failed. False: still failing, try again later. A store that never fails returns true.
     */
    default boolean resume() {
        return true;
    }

    /** True when the store keeps nothing across restarts (the engine may then skip some work). */
    boolean isEphemeral();

    @Override
    void close();

    /** Receives entries from {@link #scan}. Return false to stop early. */
    @FunctionalInterface
    interface EntryVisitor {
        boolean visit(byte[] key, byte[] value);
    }
}
