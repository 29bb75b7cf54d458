package io.hikyaku.engine.command;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.StartMoveTask;
import io.hikyaku.engine.VisibilityChange;
import java.util.List;
import java.util.Map;

/**
 * One state change of the engine, as a value: everything it needs is inside it (the time it is
 * applied at, message ids, receipt nonces, task ids), so applying the same sequence of commands to
 * two engines gives the same state. {@code QueueEngine.apply} is the one entry point; the
 * {@link CommandCodec} writes commands to bytes (the journal) and back.
 *
 * <p>Queries (GetQueueAttributes, ListQueues, peeks, ...) are not commands. The lazy timer work a
 * read used to do on its queue is the {@link Advance} command, applied before the read.
 */
public sealed interface Command {

    /** The time the command is applied at (epoch millis); commands are applied in time order. */
    long now();

    /** CreateQueue; {@code create.now()} is the time. */
    record CreateQueue(io.hikyaku.engine.CreateQueue create) implements Command {
        @Override
        public long now() {
            return create.now();
        }
    }

    record DeleteQueue(QueueRef queue, long now) implements Command {}

    record PurgeQueue(QueueRef queue, long now) implements Command {}

    record SetQueueAttributes(QueueRef queue, AttributeUpdate attributes, long now) implements Command {}

    record TagQueue(QueueRef queue, Map<String, String> tags, long now) implements Command {}

    record UntagQueue(QueueRef queue, List<String> tagKeys, long now) implements Command {}

    record AddPermission(QueueRef queue, String label, List<String> accountIds, List<String> actions, long now)
            implements Command {}

    record RemovePermission(QueueRef queue, String label, long now) implements Command {}

    /** SendMessage; the message id is in {@code message}. */
    record SendMessage(QueueRef queue, io.hikyaku.engine.SendMessage message, long now) implements Command {}

    record SendMessageBatch(QueueRef queue, List<io.hikyaku.engine.SendMessage> messages, long now)
            implements Command {}

    /** One receive attempt; the receipt nonce is in {@code receive}. */
    record ReceiveMessage(QueueRef queue, ReceiveMessages receive) implements Command {
        @Override
        public long now() {
            return receive.now();
        }
    }

    record DeleteMessage(QueueRef queue, String receiptHandle, long now) implements Command {}

    record DeleteMessageBatch(QueueRef queue, List<String> receiptHandles, long now) implements Command {}

    record ChangeVisibility(QueueRef queue, String receiptHandle, int visibilityTimeout, long now)
            implements Command {}

    record ChangeVisibilityBatch(QueueRef queue, List<VisibilityChange> changes, long now) implements Command {}

    /** StartMessageMoveTask; the task id is in {@code start}. */
    record StartMoveTask(io.hikyaku.engine.StartMoveTask start) implements Command {
        @Override
        public long now() {
            return start.now();
        }
    }

    record CancelMoveTask(String taskHandle, long now) implements Command {}

    /** Processes every timer due at or before {@code now} (the timer thread's round). */
    record Tick(long now) implements Command {}

    /**
     * Processes what is due on one queue at {@code now} (expired visibility and delays, retention):
     * what a read of the queue sees, applied before reads of counts and attributes and long-poll
     * checks so that the reads themselves write nothing.
     */
    record Advance(QueueRef queue, long now) implements Command {}
}
