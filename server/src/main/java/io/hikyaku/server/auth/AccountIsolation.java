package io.hikyaku.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.identity.Principal;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The access rule while policies are not yet enforced (auth sigv4): a verified principal acts only
 * on its own account's queues, and the anonymous principal on none. The account comes from the
 * verified credential; a queue named by another account's URL or ARN is refused with AccessDenied
 * before the call reaches the service. The policy evaluator will replace this rule (cross-account
 * grants through queue policies, identity policies of users and roles).
 *
 * <p>Queues a request names: its {@code QueueUrl} (or the queue path of a Query request), GetQueueUrl's
 * {@code QueueOwnerAWSAccountId}, the move-task {@code SourceArn} / {@code DestinationArn} / {@code TaskHandle}, and a
 * {@code RedrivePolicy}'s {@code deadLetterTargetArn}.
 */
final class AccountIsolation {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> BASE_ACTIONS = Map.of(
            "SendMessageBatch", "SendMessage",
            "DeleteMessageBatch", "DeleteMessage",
            "ChangeMessageVisibilityBatch", "ChangeMessageVisibility");

    private final String region;

    AccountIsolation(String region) {
        this.region = region;
    }

    /** @throws ApiException AccessDenied when the caller may not act on a queue the request names */
    void check(Principal caller, ApiRequest request) {
        List<String[]> queues = queues(request);
        if (caller.isAnonymous()) {
            String resource = queues.isEmpty() ? "" : queues.get(0)[0] + "/" + queues.get(0)[1];
            throw new ApiException("AccessDenied", "Access to the resource https://sqs." + region + ".amazonaws.com/" + resource + " is denied.");
        }
        for (String[] q : queues) {
            if (!q[0].equals(caller.accountId())) {
                String action = "sqs:" + BASE_ACTIONS.getOrDefault(request.action(), request.action()).toLowerCase(Locale.ROOT);
                throw new ApiException("AccessDenied", "User: " + caller.arn() + " is not authorized to perform: " + action
                        + " on resource: arn:aws:sqs:" + region + ":" + q[0] + ":" + q[1]
                        + " because no resource-based policy allows the " + action + " action");
            }
        }
    }

    /** (account, name) of every queue the request names whose account is known. */
    static List<String[]> queues(ApiRequest request) {
        List<String[]> out = new ArrayList<>();
        JsonNode in = request.input();
        String url = in == null ? null : text(in, "QueueUrl");
        String[] fromUrl = url != null ? fromPath(pathOf(url)) : fromPath(request.path());
        if (fromUrl != null) {
            out.add(fromUrl);
        }
        if (in == null) {
            return out;
        }
        String owner = text(in, "QueueOwnerAWSAccountId");
        if (owner != null && !owner.isEmpty()) {
            out.add(new String[] {owner, String.valueOf(text(in, "QueueName"))});
        }
        for (String field : List.of("SourceArn", "DestinationArn")) {
            String[] q = fromArn(text(in, field));
            if (q != null) {
                out.add(q);
            }
        }
        String handle = text(in, "TaskHandle"); // CancelMessageMoveTask: base64 JSON naming the source queue's ARN
        if (handle != null) {
            try {
                String[] q = fromArn(text(JSON.readTree(java.util.Base64.getDecoder().decode(handle.trim())), "sourceArn"));
                if (q != null) {
                    out.add(q);
                }
            } catch (IOException | RuntimeException malformed) {
                // the service answers an undecodable handle with its own error
            }
        }
        String redrive = text(in.path("Attributes"), "RedrivePolicy");
        if (redrive != null) {
            try {
                String[] q = fromArn(text(JSON.readTree(redrive), "deadLetterTargetArn"));
                if (q != null) {
                    out.add(q);
                }
            } catch (IOException | RuntimeException malformed) {
                // the service answers a malformed RedrivePolicy with its own error
            }
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    private static String pathOf(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int slash = url.indexOf('/', scheme + 3);
        return slash < 0 ? "" : url.substring(slash);
    }

    /** The last two segments {@code /{account}/{name}}; null when the path has no account. */
    private static String[] fromPath(String path) {
        if (path == null) {
            return null;
        }
        int q = path.indexOf('?');
        String p = q >= 0 ? path.substring(0, q) : path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        int last = p.lastIndexOf('/');
        if (last <= 0) {
            return null;
        }
        int prev = p.lastIndexOf('/', last - 1);
        String account = p.substring(prev + 1, last);
        String name = p.substring(last + 1);
        return account.isEmpty() || name.isEmpty() ? null : new String[] {account, name};
    }

    private static String[] fromArn(String arn) {
        if (arn == null) {
            return null;
        }
        String[] parts = arn.split(":", -1);
        if (parts.length != 6 || !parts[0].equals("arn") || !parts[2].equals("sqs") || parts[4].isEmpty()) {
            return null;
        }
        return new String[] {parts[4], parts[5]};
    }
}
