package io.hikyaku.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.policy.SqsActions;
import io.hikyaku.protocol.ApiRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What one SQS request must be allowed to do: each check is an IAM action on a queue (account and
 * name; a null name is the account-level resource {@code "*"} of ListQueues). The queue is found as
 * the service finds it: {@code QueueUrl} (or the request path), a bare name or ElasticMQ's
 * {@code /queue/NAME} meaning the caller's or the default account; CreateQueue's and GetQueueUrl's
 * {@code QueueName} (with {@code QueueOwnerAWSAccountId}); the move tasks' {@code SourceArn} (the
 * dead-letter queue; a {@code DestinationArn} also needs {@code sqs:SendMessage} there) or the
 * source named inside a {@code TaskHandle}.
 *
 * <p>Extra checks: CreateQueue with tags also needs {@code sqs:TagQueue}; a {@code RedrivePolicy} whose
 * dead-letter queue is in another account is checked as the operation on that queue, which, the
 * operation being owner-only, is always refused (a dead-letter queue must be in the queue's account).
 */
final class QueueTargets {

    record Check(String action, String account, String queueName) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ELASTICMQ_SEGMENT = "queue";

    private QueueTargets() {}

    /** The checks, in order; null when the action is not an SQS operation Hikyaku authorizes. */
    static List<Check> of(ApiRequest request, String callerAccount, String defaultAccount) {
        String op = request.action();
        String action = SqsActions.iamAction(op);
        if (action == null) {
            return null;
        }
        JsonNode in = request.input();
        List<Check> out = new ArrayList<>(2);
        switch (op) {
            case "ListQueues" -> out.add(new Check(action, callerAccount, null));
            case "CreateQueue" -> {
                String name = RequestAuthorization.text(in, "QueueName");
                out.add(new Check(action, callerAccount, name));
                if (ConditionContext.hasTags(in, "tags") || ConditionContext.hasTags(in, "Tags")) {
                    out.add(new Check("sqs:TagQueue", callerAccount, name));
                }
            }
            case "GetQueueUrl" -> {
                String owner = RequestAuthorization.text(in, "QueueOwnerAWSAccountId");
                out.add(new Check(action, owner == null || owner.isEmpty() ? callerAccount : owner,
                        RequestAuthorization.text(in, "QueueName")));
            }
            case "StartMessageMoveTask", "ListMessageMoveTasks" -> {
                String[] source = fromArn(RequestAuthorization.text(in, "SourceArn"));
                if (source != null) {
                    out.add(new Check(action, source[0], source[1]));
                }
                String[] destination = fromArn(RequestAuthorization.text(in, "DestinationArn"));
                if (destination != null) {
                    out.add(new Check("sqs:SendMessage", destination[0], destination[1]));
                }
            }
            case "CancelMessageMoveTask" -> {
                String[] source = fromTaskHandle(RequestAuthorization.text(in, "TaskHandle"));
                if (source != null) {
                    out.add(new Check(action, source[0], source[1]));
                }
            }
            default -> {
                String[] queue = fromUrlOrPath(in, request.path(), callerAccount, defaultAccount);
                if (queue != null) {
                    out.add(new Check(action, queue[0], queue[1]));
                }
            }
        }
        if ((op.equals("CreateQueue") || op.equals("SetQueueAttributes")) && !out.isEmpty()) {
            String[] dlq = redriveTarget(in);
            String account = out.get(0).account();
            if (dlq != null && account != null && !dlq[0].equals(account)) {
                out.add(new Check(action, dlq[0], dlq[1]));
            }
        }
        return out;
    }

    /** (account, name) of the queue a QueueUrl or request path names, resolved as the service does; null if none. */
    static String[] fromUrlOrPath(JsonNode in, String requestPath, String callerAccount, String defaultAccount) {
        String url = RequestAuthorization.text(in, "QueueUrl");
        String path;
        if (url == null || url.isEmpty()) {
            path = requestPath;
        } else if (url.indexOf('/') < 0) {
            return callerAccount == null ? null : new String[] {callerAccount, url}; // a bare name
        } else {
            path = pathOf(url);
        }
        if (path == null) {
            return null;
        }
        int q = path.indexOf('?');
        String p = q >= 0 ? path.substring(0, q) : path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        int last = p.lastIndexOf('/');
        if (last < 0) {
            return null;
        }
        if (last == 0) { // SDK v1 sends a bare-name QueueUrl as the path: the caller's queue
            return url == null && p.length() > 1 && callerAccount != null ? new String[] {callerAccount, p.substring(1)} : null;
        }
        int prev = p.lastIndexOf('/', last - 1);
        String account = p.substring(prev + 1, last);
        String name = p.substring(last + 1);
        if (account.isEmpty() || name.isEmpty()) {
            return null;
        }
        return new String[] {account.equals(ELASTICMQ_SEGMENT) ? defaultAccount : account, name};
    }

    private static String pathOf(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int slash = url.indexOf('/', scheme + 3);
        return slash < 0 ? "" : url.substring(slash);
    }

    /** (account, name) of an SQS queue ARN, or null. */
    static String[] fromArn(String arn) {
        if (arn == null) {
            return null;
        }
        String[] parts = arn.split(":", -1);
        if (parts.length != 6 || !parts[0].equals("arn") || !parts[2].equals("sqs") || parts[4].isEmpty() || parts[5].isEmpty()) {
            return null;
        }
        return new String[] {parts[4], parts[5]};
    }

    /** CancelMessageMoveTask's handle is base64 JSON naming the source queue's ARN; an undecodable one is the service's to refuse. */
    private static String[] fromTaskHandle(String handle) {
        if (handle == null) {
            return null;
        }
        try {
            return fromArn(RequestAuthorization.text(JSON.readTree(Base64.getDecoder().decode(handle.trim())), "sourceArn"));
        } catch (IOException | RuntimeException malformed) {
            return null;
        }
    }

    private static String[] redriveTarget(JsonNode in) {
        String redrive = in == null ? null : RequestAuthorization.text(in.path("Attributes"), "RedrivePolicy");
        if (redrive == null) {
            return null;
        }
        try {
            return fromArn(RequestAuthorization.text(JSON.readTree(redrive), "deadLetterTargetArn"));
        } catch (IOException | RuntimeException malformed) {
            return null; // the service answers a malformed RedrivePolicy with its own error
        }
    }
}
