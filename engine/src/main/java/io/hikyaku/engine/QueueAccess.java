package io.hikyaku.engine;

import java.util.Map;

/**
 * What authorizing a request on a queue needs from the engine: the queue's {@code Policy} document
 * (null when it has none) and its tags (the {@code aws:ResourceTag/*} condition keys).
 */
public record QueueAccess(String policy, Map<String, String> tags) {

    public QueueAccess {
        tags = tags == null ? Map.of() : Map.copyOf(tags);
    }
}
