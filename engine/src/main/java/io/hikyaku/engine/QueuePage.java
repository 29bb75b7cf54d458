package io.hikyaku.engine;

import java.util.List;

/** One page of ListQueues / ListDeadLetterSourceQueues; {@code nextToken} is null on the last page. */
public record QueuePage(List<QueueInfo> queues, String nextToken) {}
