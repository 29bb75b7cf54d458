package io.hikyaku.engine;

import java.util.Map;

/**
 * A delivered message with every system attribute; the api filters what the client asked for.
 * Null fields are absent (sequenceNumber/deduplicationId on standard queues, groupId when not
 * sent, awsTraceHeader when not sent, deadLetterQueueSourceArn unless moved to a DLQ).
 */
public record ReceivedMessage(String messageId, String receiptHandle, String body,
                              Map<String, MessageAttribute> attributes, String senderId, long sentTimestamp,
                              int approximateReceiveCount, long approximateFirstReceiveTimestamp,
                              String sequenceNumber, String deduplicationId, String groupId,
                              String awsTraceHeader, String deadLetterQueueSourceArn) {}
