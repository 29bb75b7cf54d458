package io.hikyaku.engine;

/** Exact message counts of a queue. */
public record QueueCounts(long visible, long notVisible, long delayed) {}
