package io.hikyaku.server;

import java.util.Map;
import java.util.Objects;

/**
 * A queue to create (or bring up to date) when the server starts.
 *
 * @param name            the queue name (ends with {@code .fifo} for a FIFO queue)
 * @param attributes      SQS attribute names to values, as SetQueueAttributes takes them
 * @param tags            tag keys to values
 * @param deadLetterQueue name of the queue that receives this queue's dead letters, or null
 * @param maxReceiveCount receives before a message moves to {@code deadLetterQueue} (required with it)
 * @param account         the 12-digit account that owns the queue, or null for the default account
 *                        (its dead-letter queue is looked up in the same account)
 */
public record QueueDefinition(String name, Map<String, String> attributes, Map<String, String> tags,
                              String deadLetterQueue, Integer maxReceiveCount, String account) {

    /** A queue of the default account. */
    public QueueDefinition(String name, Map<String, String> attributes, Map<String, String> tags,
                           String deadLetterQueue, Integer maxReceiveCount) {
        this(name, attributes, tags, deadLetterQueue, maxReceiveCount, null);
    }

    public QueueDefinition {
        Objects.requireNonNull(name, "queue name");
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        tags = tags == null ? Map.of() : Map.copyOf(tags);
        if (deadLetterQueue != null && maxReceiveCount == null) {
            throw new IllegalArgumentException("queue " + name + ": deadLetterQueue needs maxReceiveCount");
        }
        if (maxReceiveCount != null && deadLetterQueue == null) {
            throw new IllegalArgumentException("queue " + name + ": maxReceiveCount needs deadLetterQueue");
        }
        if (account != null && !account.matches("\\d{12}")) {
            throw new IllegalArgumentException("queue " + name + ": account must be 12 digits, got " + account);
        }
    }

    /** A queue with default attributes, no tags and no dead-letter queue. */
    public static QueueDefinition named(String name) {
        return new QueueDefinition(name, Map.of(), Map.of(), null, null);
    }
}
