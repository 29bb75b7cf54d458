package io.hikyaku.engine;

import java.util.Map;

/**
 * A delivered message with every system attribute; the api filters what the client asked for.
 * Null fields are absent (sequenceNumber/deduplicationId on standard queues, groupId when not
 * sent, awsTraceHeader when not sent, deadLetterQueueSourceArn unless moved to a DLQ).
 * {@code bodyDigest} is the sender's {@link SendMessage#bodyDigest()} when the body came from the
 * engine's memory, null when it was read back from the store (or none was given).
 */
public record ReceivedMessage(String messageId, String receiptHandle, String body,
                              Map<String, MessageAttribute> attributes, String senderId, long sentTimestamp,
                              int approximateReceiveCount, long approximateFirstReceiveTimestamp,
                              String sequenceNumber, String deduplicationId, String groupId,
                              String awsTraceHeader, String deadLetterQueueSourceArn, String bodyDigest) {}
