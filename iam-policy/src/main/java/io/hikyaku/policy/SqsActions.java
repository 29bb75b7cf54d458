package io.hikyaku.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SQS authorization map: each of the 23 API operations and the IAM action it is authorized as
 * (a batch operation as its single action: SendMessageBatch is {@code sqs:SendMessage}), which actions
 * only the queue's own account may perform (a queue policy cannot grant them to anyone else), and
 * the resource each is checked on.
 */
public final class SqsActions {

    private static final Map<String, String> IAM_ACTION;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        for (String op : List.of("AddPermission", "CancelMessageMoveTask", "ChangeMessageVisibility", "CreateQueue",
                "DeleteMessage", "DeleteQueue", "GetQueueAttributes", "GetQueueUrl", "ListDeadLetterSourceQueues",
                "ListMessageMoveTasks", "ListQueues", "ListQueueTags", "PurgeQueue", "ReceiveMessage",
                "RemovePermission", "SendMessage", "SetQueueAttributes", "StartMessageMoveTask", "TagQueue",
                "UntagQueue")) {
            m.put(op, "sqs:" + op);
        }
        m.put("SendMessageBatch", "sqs:SendMessage");
        m.put("DeleteMessageBatch", "sqs:DeleteMessage");
        m.put("ChangeMessageVisibilityBatch", "sqs:ChangeMessageVisibility");
        IAM_ACTION = Collections.unmodifiableMap(m);
    }

    /** Actions whose cross-account permissions "don't apply" (SQS developer guide): lower-cased names without prefix. */
    private static final Set<String> OWNER_ONLY = Set.of("addpermission", "createqueue", "deletequeue", "listqueues",
            "listqueuetags", "removepermission", "setqueueattributes", "tagqueue", "untagqueue");

    private SqsActions() {}

    /** The 23 operation names. */
    public static Set<String> operations() {
        return Collections.unmodifiableSet(new TreeSet<>(IAM_ACTION.keySet()));
    }

    /**
     * Hikyaku's own read-only peek (JSON target {@code Hikyaku.PeekMessages}) reads what a receive
     * would, so it is authorized as {@code sqs:ReceiveMessage}. Not one of the 23 SQS operations.
     */
    public static final String PEEK_MESSAGES = "Hikyaku.PeekMessages";

    /** {@code sqs:SendMessage} for SendMessage and SendMessageBatch; null for an unknown operation. */
    public static String iamAction(String operation) {
        if (PEEK_MESSAGES.equals(operation)) {
            return "sqs:ReceiveMessage";
        }
        return IAM_ACTION.get(operation);
    }

    /**
     * Every IAM action an operation needs: its own, plus {@code sqs:TagQueue} for a CreateQueue that
     * carries tags (as Amazon SQS checks).
     */
    public static List<String> requiredActions(String operation, boolean withTags) {
        String action = iamAction(operation);
        if (action == null) {
            return List.of();
        }
        if (operation.equals("CreateQueue") && withTags) {
            return List.of(action, "sqs:TagQueue");
        }
        return List.of(action);
    }

    /** Whether only the queue's own account may perform the IAM action (case-insensitive). */
    public static boolean isOwnerOnly(String iamAction) {
        String a = iamAction.toLowerCase(Locale.ROOT);
        return a.startsWith("sqs:") && OWNER_ONLY.contains(a.substring(4));
    }

    /** {@code arn:aws:sqs:{region}:{account}:{queue}}. */
    public static String queueArn(String region, String account, String queueName) {
        return "arn:aws:sqs:" + region + ":" + account + ":" + queueName;
    }

    /**
     * The resource an operation is authorized on: {@code "*"} for ListQueues (it has no resource),
     * otherwise the queue's ARN: the queue being created for CreateQueue, the dead-letter queue for
     * ListDeadLetterSourceQueues, the move task's source queue for the three move-task operations.
     */
    public static String resourceArn(String operation, String region, String account, String queueName) {
        if (operation.equals("ListQueues")) {
            return "*";
        }
        return queueArn(region, account, queueName);
    }
}
