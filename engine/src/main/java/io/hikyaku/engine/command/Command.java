package io.hikyaku.engine.command;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.BatchOutcome;
import io.hikyaku.engine.QueueInfo;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SealOutcome;
import io.hikyaku.engine.SendResult;
import io.hikyaku.engine.StartMoveTask;
import io.hikyaku.engine.Ticked;
import io.hikyaku.engine.VisibilityChange;
import java.util.List;
import java.util.Map;

/**
 * One state change of the engine, as a value: everything it needs is inside it (the time it is
 * applied at, message ids, receipt nonces, task ids), so applying the same sequence of commands to
 * two engines gives the same state. {@code QueueEngine.apply} is the one entry point; the
 * {@link CommandCodec} writes commands to bytes (the journal) and back. {@code R} is the type of
 * the value applying it gives ({@link Applied}): {@code Void} for a command whose answer is only
 * "done".
 *
 * <p>Queries (GetQueueAttributes, ListQueues, peeks, ...) are not commands. The lazy timer work a
 * read used to do on its queue is the {@link Advance} command, applied before the read.
 */
public sealed interface Command<R> {

    /** The time the command is applied at (epoch millis); commands are applied in time order. */
    long now();

    /** CreateQueue; {@code create.now()} is the time. */
    record CreateQueue(io.hikyaku.engine.CreateQueue create) implements Command<QueueInfo> {
        @Override
        public long now() {
            return create.now();
        }
    }

    record DeleteQueue(QueueRef queue, long now) implements Command<Void> {}

    record PurgeQueue(QueueRef queue, long now) implements Command<Void> {}

    record SetQueueAttributes(QueueRef queue, AttributeUpdate attributes, long now) implements Command<Void> {}

    record TagQueue(QueueRef queue, Map<String, String> tags, long now) implements Command<Void> {}

    record UntagQueue(QueueRef queue, List<String> tagKeys, long now) implements Command<Void> {}

    record AddPermission(QueueRef queue, String label, List<String> accountIds, List<String> actions, long now)
            implements Command<Void> {}

    record RemovePermission(QueueRef queue, String label, long now) implements Command<Void> {}

    /** SendMessage; the message id is in {@code message}. */
    record SendMessage(QueueRef queue, io.hikyaku.engine.SendMessage message, long now) implements Command<SendResult> {}

    /**
     * A send that happens at most once per {@code (source, generation, position)}: the message is
     * stored, and with it (in the same store batch) a record that {@code source} (e.g. a schedule's
     * ARN, within the target queue's {@code account}) was sent at {@code position} of
     * {@code generation}. A repeat whose record shows the same generation at this position or later
     * stores nothing and answers the recorded message id. Positions grow per generation; a new
     * generation (the source recreated) starts over. The Scheduler's fires use it: exactly once across
     * crashes.
     */
    record SendOnce(QueueRef queue, io.hikyaku.engine.SendMessage message, String source, long generation,
                    long position, long now) implements Command<SendResult> {}

    record SendMessageBatch(QueueRef queue, List<io.hikyaku.engine.SendMessage> messages, long now)
            implements Command<List<BatchOutcome<SendResult>>> {}

    /** One receive attempt; the receipt nonce is in {@code receive}. */
    record ReceiveMessage(QueueRef queue, ReceiveMessages receive) implements Command<List<ReceivedMessage>> {
        @Override
        public long now() {
            return receive.now();
        }
    }

    record DeleteMessage(QueueRef queue, String receiptHandle, long now) implements Command<Void> {}

    record DeleteMessageBatch(QueueRef queue, List<String> receiptHandles, long now) implements Command<List<BatchOutcome<Void>>> {}

    record ChangeVisibility(QueueRef queue, String receiptHandle, int visibilityTimeout, long now)
            implements Command<Void> {}

    record ChangeVisibilityBatch(QueueRef queue, List<VisibilityChange> changes, long now) implements Command<List<BatchOutcome<Void>>> {}

    /** StartMessageMoveTask; the task id is in {@code start}. */
    record StartMoveTask(io.hikyaku.engine.StartMoveTask start) implements Command<String> {
        @Override
        public long now() {
            return start.now();
        }
    }

    record CancelMoveTask(String taskHandle, long now) implements Command<Long> {}

    /**
     * Re-encryption of one stored message ({@code hikyaku reencrypt}): the message at {@code seq} of the queue
     * gets {@code sealedBody} (sealed by the api, its attributes inside) as its stored body and no attributes,
     * when it is still there, still {@code messageId} and still plaintext; otherwise nothing changes
     * ({@link SealOutcome}). Everything else about the message stays as it was.
     */
    record SealMessage(QueueRef queue, long seq, String messageId, String sealedBody, long now)
            implements Command<SealOutcome> {}

    /** Processes every timer due at or before {@code now} (the timer thread's round). */
    record Tick(long now) implements Command<Ticked> {}

    /**
     * Processes what is due on one queue at {@code now} (expired visibility and delays, retention):
     * what a read of the queue sees, applied before reads of counts and attributes and long-poll
     * checks so that the reads themselves write nothing.
     */
    record Advance(QueueRef queue, long now) implements Command<Void> {}
}
