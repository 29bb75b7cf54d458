package io.hikyaku.engine;

/**
 * StartMessageMoveTask. {@code destinationArn} null = each message's original source queue;
 * {@code maxMessagesPerSecond} null = as fast as tick allows (engine default 500/s);
 * {@code taskId} a fresh UUID from the caller.
 */
public record StartMoveTask(String sourceArn, String destinationArn, Integer maxMessagesPerSecond,
                            String taskId, long now) {}
