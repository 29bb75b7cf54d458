package io.hikyaku.engine;

import io.hikyaku.engine.store.Store;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The deterministic SQS queue state machine. Not thread-safe: callers serialise all calls (one
 * lock). Every command carries its {@code now} (epoch millis) and generated ids; nothing here reads
 * a clock or a random source. Commands that change state write one store batch and return it as
 * {@link Durable}; refusals throw {@link EngineException} before anything is changed.
 *
 * <p>Validation split: the api checks request formats that need no queue (body characters,
 * attribute name syntax, id syntax, MaxNumberOfMessages / WaitTimeSeconds ranges, batch entry ids,
 * JSON parsing of RedrivePolicy / RedriveAllowPolicy). The engine checks queue names, attribute
 * names and values, FIFO rules, message size, receipt handles, visibility ranges and every rule
 * that depends on state.
 */
public final class QueueEngine {

    /** Loads all state from {@code store}; {@code defaultRegion} is used when a command gives none. */
    public QueueEngine(Store store, String defaultRegion) {
        throw new UnsupportedOperationException("not yet");
    }

    // ---- queues ---------------------------------------------------------------------------

    /** CreateQueue: idempotent for equal attributes, else QueueNameExists; QueueDeletedRecently. */
    public Durable<QueueInfo> createQueue(CreateQueue command) {
        throw new UnsupportedOperationException("not yet");
    }

    /** GetQueueUrl and the lookup behind every queue command; throws QueueDoesNotExist. */
    public QueueInfo getQueue(QueueRef queue) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The queue whose ARN this is, or null (any account). */
    public QueueInfo findQueueByArn(String arn) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<Void> deleteQueue(QueueRef queue, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * ListQueues of one account, names starting with {@code prefix} (null = all), in name order.
     * {@code maxResults} null = up to 1000 and no token; else 1..1000 (InvalidParameterValue).
     */
    public QueuePage listQueues(String accountId, String prefix, Integer maxResults, String nextToken) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * GetQueueAttributes. {@code names} may hold "All"; unknown names -> InvalidAttributeName
     * "Unknown Attribute X.". Returns name -> value in SQS's order; absent attributes are left out.
     */
    public Map<String, String> getQueueAttributes(QueueRef queue, Collection<String> names, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<Void> setQueueAttributes(QueueRef queue, AttributeUpdate attributes, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Exact counts (visible, in flight, delayed) after processing what is due at {@code now}. */
    public QueueCounts counts(QueueRef queue, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<Void> tagQueue(QueueRef queue, Map<String, String> tags, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<Void> untagQueue(QueueRef queue, Collection<String> tagKeys, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    public Map<String, String> listQueueTags(QueueRef queue) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * AddPermission: {@code accountIds} are 12-digit ids (become arn:aws:iam::{id}:root),
     * {@code actions} are action names without prefix ("ReceiveMessage", "*").
     */
    public Durable<Void> addPermission(QueueRef queue, String label, List<String> accountIds, List<String> actions,
                                       long now) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<Void> removePermission(QueueRef queue, String label, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** PurgeQueue; a second one within 60 s -> PurgeQueueInProgress. */
    public Durable<Void> purgeQueue(QueueRef queue, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Queues whose RedrivePolicy targets {@code queue}; paging as {@link #listQueues}. */
    public QueuePage listDeadLetterSourceQueues(QueueRef queue, Integer maxResults, String nextToken) {
        throw new UnsupportedOperationException("not yet");
    }

    // ---- messages -------------------------------------------------------------------------

    public Durable<SendResult> sendMessage(QueueRef queue, SendMessage message, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * SendMessageBatch: one store batch for all entries. Whole-request errors (FIFO entry without
     * MessageGroupId or without dedup id when needed) are thrown as InvalidParameterValue; per-entry
     * errors (e.g. size) come back in the list, in entry order.
     */
    public Durable<List<BatchOutcome<SendResult>>> sendMessageBatch(QueueRef queue, List<SendMessage> messages,
                                                                    long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** ReceiveMessage (one attempt; the api does long polling). Empty list when nothing is visible. */
    public Durable<List<ReceivedMessage>> receiveMessages(QueueRef queue, ReceiveMessages command) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<Void> deleteMessage(QueueRef queue, String receiptHandle, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    public Durable<List<BatchOutcome<Void>>> deleteMessageBatch(QueueRef queue, List<String> receiptHandles,
                                                                long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** ChangeMessageVisibility, {@code visibilityTimeout} seconds 0..43200. */
    public Durable<Void> changeMessageVisibility(QueueRef queue, String receiptHandle, int visibilityTimeout,
                                                 long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Entries are (receiptHandle, visibilityTimeout) pairs in request order. */
    public Durable<List<BatchOutcome<Void>>> changeMessageVisibilityBatch(QueueRef queue,
                                                                          List<VisibilityChange> changes, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    // ---- message move tasks ---------------------------------------------------------------

    /** StartMessageMoveTask; returns the task handle. */
    public Durable<String> startMessageMoveTask(StartMoveTask command) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Newest first, at most {@code maxResults} (null = 1; 1..10). */
    public List<MoveTaskInfo> listMessageMoveTasks(String sourceArn, Integer maxResults) {
        throw new UnsupportedOperationException("not yet");
    }

    /** CancelMessageMoveTask; returns ApproximateNumberOfMessagesMoved. */
    public Durable<Long> cancelMessageMoveTask(String taskHandle, long now) {
        throw new UnsupportedOperationException("not yet");
    }

    // ---- timers ---------------------------------------------------------------------------

    /** Epoch millis of the earliest pending timer over all queues, or Long.MAX_VALUE. */
    public long nextDeadline() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Processes every timer due at or before {@code now}. */
    public Ticked tick(long now) {
        throw new UnsupportedOperationException("not yet");
    }

    /** True when {@code queue} has a message a receive at {@code now} could return (for long polls). */
    public boolean hasVisibleMessages(QueueRef queue, long now) {
        throw new UnsupportedOperationException("not yet");
    }
}
