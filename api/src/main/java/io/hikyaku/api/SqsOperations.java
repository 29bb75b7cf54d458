package io.hikyaku.api;

import io.hikyaku.policy.SqsActions;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SQS operation table: for each operation the server serves, how its request names the resource
 * it acts on, its IAM action, and (from that resource's account) its engine shard. The one place that
 * knows SQS operations and their targets: {@link SqsRequests} resolves a request through it once, and
 * authorization, routing, the actions, metrics and the access log read that {@link ResolvedRequest}.
 * An operation that is not here is refused before anything reads it (fail closed).
 */
public final class SqsOperations {

    /** How an operation's request names the resource it acts on (and so the account that owns it). */
    public enum Addressing {
        /** The caller's account as a whole (ListQueues: resource {@code "*"}). */
        ACCOUNT,
        /** {@code QueueName} in the caller's account (CreateQueue). */
        NEW_QUEUE,
        /** {@code QueueName} in {@code QueueOwnerAWSAccountId} or the caller's account (GetQueueUrl). */
        QUEUE_NAME,
        /** {@code QueueUrl}, or the request path when it is absent or empty ({@link QueueAddress}). */
        QUEUE_URL,
        /** {@code SourceArn} (and {@code DestinationArn}, which also needs sqs:SendMessage). */
        SOURCE_ARN,
        /** The source queue named inside {@code TaskHandle}. */
        TASK_HANDLE
    }

    /**
     * @param name       the operation (X-Amz-Target suffix or Query Action)
     * @param iamAction  what it is authorized as ({@link SqsActions})
     * @param addressing how its target is found
     * @param redrive    whether its Attributes may carry a RedrivePolicy whose dead-letter queue is checked too
     */
    public record Operation(String name, String iamAction, Addressing addressing, boolean redrive) {}

    private static final Map<String, Operation> TABLE;

    static {
        Map<String, Operation> m = new LinkedHashMap<>();
        add(m, "ListQueues", Addressing.ACCOUNT, false);
        add(m, "CreateQueue", Addressing.NEW_QUEUE, true);
        add(m, "GetQueueUrl", Addressing.QUEUE_NAME, false);
        for (String op : new String[] {"DeleteQueue", "GetQueueAttributes", "PurgeQueue", "ListQueueTags", "TagQueue",
                "UntagQueue", "AddPermission", "RemovePermission", "ListDeadLetterSourceQueues", "SendMessage",
                "SendMessageBatch", "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility",
                "ChangeMessageVisibilityBatch", SqsActions.PEEK_MESSAGES}) {
            add(m, op, Addressing.QUEUE_URL, false);
        }
        add(m, "SetQueueAttributes", Addressing.QUEUE_URL, true);
        add(m, "StartMessageMoveTask", Addressing.SOURCE_ARN, false);
        add(m, "ListMessageMoveTasks", Addressing.SOURCE_ARN, false);
        add(m, "CancelMessageMoveTask", Addressing.TASK_HANDLE, false);
        TABLE = Collections.unmodifiableMap(m);
    }

    private static void add(Map<String, Operation> m, String name, Addressing addressing, boolean redrive) {
        String action = SqsActions.iamAction(name);
        if (action == null) {
            throw new IllegalStateException("no IAM action for " + name);
        }
        m.put(name, new Operation(name, action, addressing, redrive));
    }

    private SqsOperations() {}

    /** The operation of that name, or null when the server does not serve it (the request is then refused). */
    public static Operation find(String name) {
        return name == null ? null : TABLE.get(name);
    }

    /** Every operation, in table order. */
    public static Collection<Operation> all() {
        return TABLE.values();
    }
}
