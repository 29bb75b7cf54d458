package io.hikyaku.engine;

/** Addresses a queue: queues live in (accountId, name). */
public record QueueRef(String accountId, String name) {}
