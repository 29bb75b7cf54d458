package io.hikyaku.engine;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link QueueEngine#tick(long)} did: the queues that gained visible messages (wake their
 * long polls) and the durability of the timer effects.
 */
public record Ticked(Set<QueueRef> queuesWithNewVisibleMessages, CompletableFuture<Void> written) {}
