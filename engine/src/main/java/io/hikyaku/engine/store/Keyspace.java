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
    /** Message bodies and their immutable attributes: written once at send, removed once at delete. */
    MESSAGES,
    /** Mutable per-message state: visibility deadline, receive count, first receive time, receipt. */
    MESSAGE_STATE,
    /** FIFO deduplication entries and ReceiveRequestAttemptId results (short-lived). */
    DEDUP,
    /** Recently deleted queue names, purge timestamps, message move tasks. */
    HOUSEKEEPING
}
