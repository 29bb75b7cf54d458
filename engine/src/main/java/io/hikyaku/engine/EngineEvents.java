package io.hikyaku.engine;

/**
 * Things the engine does that no request or result shows (for metrics). Called under the engine's
 * lock, synchronously: implementations must be quick and must not call the engine.
 */
public interface EngineEvents {

    EngineEvents NONE = new EngineEvents() { };

    /**
     * A send was accepted as a duplicate (nothing stored): a FIFO send within the deduplication interval,
     * or a {@code SendOnce} repeated (a Scheduler fire sent again after a crash).
     */
    default void deduplicated(QueueRef queue) { }

    /** A message received too often moved from {@code source} to its dead-letter queue {@code deadLetterQueue}. */
    default void movedToDeadLetterQueue(QueueRef source, QueueRef deadLetterQueue) { }

    /** A message move task moved one message from {@code source} to {@code destination}. */
    default void movedByTask(QueueRef source, QueueRef destination) { }

    /** A send (or a whole batch) to {@code queue} was refused with RequestThrottled: memory's index budget is used up. */
    default void sendRefused(QueueRef queue) { }
}
