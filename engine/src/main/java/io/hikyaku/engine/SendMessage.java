package io.hikyaku.engine;

import java.util.Map;

/**
 * SendMessage (one entry). The api has already checked formats (body characters, attribute
 * names/types, group/dedup id syntax, DelaySeconds 0..900); the engine checks what depends on the
 * queue (FIFO rules, size vs MaximumMessageSize). {@code messageId} is a fresh UUID string from the
 * caller (ignored when FIFO dedup returns the original). {@code attributes}, {@code
 * delaySeconds}, {@code awsTraceHeader}, {@code groupId}, {@code deduplicationId} may be null.
 */
public record SendMessage(String body, Map<String, MessageAttribute> attributes, String awsTraceHeader,
                          Integer delaySeconds, String groupId, String deduplicationId, String senderId,
                          String messageId) {}
