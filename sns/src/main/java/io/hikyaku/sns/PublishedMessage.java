package io.hikyaku.sns;

import io.hikyaku.filter.SnsFilterPolicy;
import java.util.Map;

/**
 * A validated Publish (or PublishBatch entry), stamped with its id and time.
 *
 * @param attributes message attributes by name, in name order
 * @param sequenceNumber the topic's sequence number (FIFO topics), else null
 * @param deduplicationId the publisher's id or, with content-based deduplication, SHA-256 hex of the message
 */
record PublishedMessage(String topicArn, String messageId, String message, String subject,
                        Map<String, SnsFilterPolicy.Attribute> attributes, String groupId, String deduplicationId,
                        String sequenceNumber, long timestampMillis) {
}
