package io.hikyaku.engine;

import java.util.Map;

/**
 * SendMessage (one entry). The api has already checked formats (body characters, attribute
 * names/types, group/dedup id syntax, DelaySeconds 0..900); the engine checks what depends on the
 * queue (FIFO rules, size vs MaximumMessageSize). {@code messageId} is a fresh UUID string from the
 * caller (ignored when FIFO dedup returns the original). {@code attributes}, {@code
 * delaySeconds}, {@code awsTraceHeader}, {@code groupId}, {@code deduplicationId} may be null.
 *
 * <p>{@code bodyDigest} is optional and opaque to the engine: the caller's digest of the body (the
 * api puts the MD5OfBody it computed for its response here). The engine keeps it with the message
 * while the body is cached in memory and hands it back in {@link ReceivedMessage#bodyDigest()}, so a
 * message received soon after it was sent is not digested twice. It is not stored.
 */
public record SendMessage(String body, Map<String, MessageAttribute> attributes, String awsTraceHeader,
                          Integer delaySeconds, String groupId, String deduplicationId, String senderId,
                          String messageId, String bodyDigest) {

    /** A message without a body digest. */
    public SendMessage(String body, Map<String, MessageAttribute> attributes, String awsTraceHeader,
                       Integer delaySeconds, String groupId, String deduplicationId, String senderId,
                       String messageId) {
        this(body, attributes, awsTraceHeader, delaySeconds, groupId, deduplicationId, senderId, messageId, null);
    }
}
