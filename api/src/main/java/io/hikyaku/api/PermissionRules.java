package io.hikyaku.api;

import java.util.List;
import java.util.Set;

/**
 * What AddPermission accepts (API reference AddPermission): a label of 1..80 alphanumerics,
 * hyphens and underscores; 12-digit account ids; 1..7 action names, each a queue action another
 * account may be granted (or {@code *}). Owner-only actions and unknown names are refused with
 * the words SQS uses for the ActionName parameter.
 */
final class PermissionRules {

    static final int MAX_ACTIONS = 7;

    /** Actions a queue owner can grant to other accounts ({@code *} = all of them). */
    private static final Set<String> GRANTABLE = Set.of("*", "SendMessage", "SendMessageBatch", "ReceiveMessage",
            "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch",
            "GetQueueAttributes", "GetQueueUrl", "ListDeadLetterSourceQueues", "PurgeQueue", "ListQueueTags");

    /** Real SQS actions that only the queue owner may call. */
    private static final Set<String> OWNER_ONLY = Set.of("AddPermission", "RemovePermission", "CreateQueue",
            "DeleteQueue", "SetQueueAttributes", "ListQueues", "TagQueue", "UntagQueue", "StartMessageMoveTask",
            "CancelMessageMoveTask", "ListMessageMoveTasks");

    private PermissionRules() {}

    static void checkLabel(String label) {
        if (label.length() > 80 || !label.chars().allMatch(PermissionRules::isLabelChar)) {
            throw Errors.invalidValue("Label", label,
                    "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length.");
        }
    }

    static void checkAccounts(List<String> accounts) {
        for (String account : accounts) {
            if (account.length() != 12 || !account.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw Errors.invalidValue("AWSAccountIds", account, "An AWS account id is 12 digits.");
            }
        }
    }

    static void checkActions(List<String> actions) {
        if (actions.size() > MAX_ACTIONS) {
            throw Errors.invalidParameter(actions.size() + " Actions were found, maximum allowed is " + MAX_ACTIONS + ".");
        }
        for (String action : actions) {
            if (OWNER_ONLY.contains(action)) {
                throw Errors.invalidValue("ActionName", "SQS:" + action,
                        "Only the queue owner is allowed to invoke this action.");
            }
            if (!GRANTABLE.contains(action)) {
                throw Errors.invalidValue("ActionName", "SQS:" + action,
                        "Please refer to the appropriate WSDL for a list of valid actions.");
            }
        }
    }

    private static boolean isLabelChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }
}
