package io.hikyaku.engine;

/**
 * What a queue holds right now, as metrics show it. Read without processing due timers (a pure
 * read), so counts may lag the timer thread by a moment: they are approximate, as in Amazon SQS.
 *
 * @param accountId           the queue's account
 * @param name                the queue name
 * @param fifo                a FIFO queue
 * @param visible             messages available for retrieval
 * @param notVisible          messages in flight
 * @param delayed             messages not yet available because of a delay
 * @param oldestSentAt        SentTimestamp (epoch millis) of the oldest message in the queue, or -1 when empty
 * @param groupsWithInflight  FIFO: message groups with a message in flight (0 for other queues)
 */
public record QueueSnapshot(String accountId, String name, boolean fifo, long visible, long notVisible, long delayed,
                            long oldestSentAt, long groupsWithInflight) {}
