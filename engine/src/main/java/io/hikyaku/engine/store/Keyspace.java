package io.hikyaku.engine.store;

/**
 * The separate key spaces the engine persists into. A durable store maps each constant to its own
 * column family (by {@link #name()}), so that space-specific tuning (e.g. bodies, short-lived state)
 * is possible. The engine owns the encoding of keys and values; stores treat both as opaque bytes.
 */
public enum Keyspace {
    /** Store-wide metadata: format version, counters (sequence numbers, id generators). */
    META,
    /** One entry per queue: its name, account, attributes, tags, policy, timestamps. */
    QUEUES,
    /**
     * Message bodies and their immutable attributes: written once at send, removed once at delete.
     * The one keyspace the engine reads while it serves (a body evicted from its cache is read back).
     */
    MESSAGES(0, true),
    /** Mutable per-message state: visibility deadline, receive count, first receive time, receipt. */
    MESSAGE_STATE,
    /**
     * FIFO deduplication entries and ReceiveRequestAttemptId results. Short-lived, by contract: an
     * entry is worthless {@link #maxEntryLifetimeMillis()} after it was written. The engine deletes
     * every entry it wrote, by its own tick in command time; a store never drops entries by age (a
     * wall-clock drop is a state a replica or a journal replay would not see). The engine only reads
     * this keyspace when it loads, and ignores expired entries.
     */
    DEDUP(5 * 60_000L, false),
    /** Recently deleted queue names, purge timestamps, message move tasks, send-once records. */
    HOUSEKEEPING;

    private final long maxEntryLifetimeMillis;
    private final boolean readWhileServing;

    Keyspace() {
        this(0, false);
    }

    Keyspace(long maxEntryLifetimeMillis, boolean readWhileServing) {
        this.maxEntryLifetimeMillis = maxEntryLifetimeMillis;
        this.readWhileServing = readWhileServing;
    }

    /**
     * Whether the engine reads this keyspace after it has loaded. The others are read only by the
     * loader, so a store that will never be loaded again need not keep them
     * ({@link MemoryStore#forServing()}).
     */
    public boolean readWhileServing() {
        return readWhileServing;
    }

    /**
     * How long after it is written an entry can still matter; 0 for keyspaces whose entries live
     * until they are deleted.
     */
    public long maxEntryLifetimeMillis() {
        return maxEntryLifetimeMillis;
    }
}
