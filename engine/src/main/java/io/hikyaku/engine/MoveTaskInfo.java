package io.hikyaku.engine;

/**
 * A message move task as ListMessageMoveTasks shows it. {@code taskHandle} is set only while
 * RUNNING; {@code destinationArn}, {@code maxMessagesPerSecond}, {@code failureReason} may be null.
 * {@code startedTimestamp} is epoch millis.
 */
public record MoveTaskInfo(String taskHandle, String status, String sourceArn, String destinationArn,
                           Integer maxMessagesPerSecond, long approximateNumberOfMessagesMoved,
                           long approximateNumberOfMessagesToMove, String failureReason, long startedTimestamp) {}
