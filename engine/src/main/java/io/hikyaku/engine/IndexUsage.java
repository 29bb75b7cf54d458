package io.hikyaku.engine;

/**
 * The engine's memory against its index budget (ENGINE.md "Memory"), for metrics.
 *
 * @param budget          index entries allowed (messages plus FIFO deduplication entries)
 * @param indexedMessages messages in the in-memory index, over all queues
 * @param spilledMessages messages kept in the store only (spilled tails), paged in as queues drain
 * @param dedupEntries    FIFO deduplication entries in memory (they may take half of the budget)
 */
public record IndexUsage(long budget, long indexedMessages, long spilledMessages, long dedupEntries) {}
