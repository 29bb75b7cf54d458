package io.hikyaku.engine;

/** MessageId and, for FIFO queues, the SequenceNumber (null on standard queues). */
public record SendResult(String messageId, String sequenceNumber) {}
