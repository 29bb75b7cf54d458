package io.hikyaku.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.identity.Principal;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import io.hikyaku.engine.QueueAccess;
import io.hikyaku.identity.RequestContext;
import io.hikyaku.policy.PolicyCache;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The authorize step on its own: which queues a request names, each checked as its IAM action
 * against identity and queue policies, with AWS's AccessDenied texts.
 */
class RequestAuthorizationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, QueueAccess> queues = new HashMap<>();
    private final RequestAuthorization authz = new RequestAuthorization("us-east-1", "000000000000",
            (account, name) -> queues.get(account + "/" + name), new PolicyCache(64, 1 << 20));
    private final Principal a = Principal.accountRoot("111111111111");

    @Test
    void everyWayOfNamingAQueueIsChecked() throws Exception {
        allowed("SendMessage", "{\"QueueUrl\":\"http://h:1/111111111111/q\"}", "/");
        denied("SendMessage", "{\"QueueUrl\":\"http://h:1/222222222222/q\"}", "/", "sqs:sendmessage", "222222222222:q");
        denied("SendMessage", "{}", "/222222222222/q", "sqs:sendmessage", "222222222222:q"); // Query to a queue URL path
        denied("SendMessageBatch", "{\"QueueUrl\":\"/222222222222/q\"}", "/", "sqs:sendmessage", "222222222222:q");
        denied("GetQueueUrl", "{\"QueueName\":\"q\",\"QueueOwnerAWSAccountId\":\"222222222222\"}", "/", "sqs:getqueueurl", "222222222222:q");
        denied("StartMessageMoveTask", "{\"SourceArn\":\"arn:aws:sqs:us-east-1:222222222222:dlq\"}", "/", "sqs:startmessagemovetask",
                "222222222222:dlq");
        denied("SetQueueAttributes", "{\"QueueUrl\":\"/111111111111/q\",\"Attributes\":{\"RedrivePolicy\":"
                + "\"{\\\"deadLetterTargetArn\\\":\\\"arn:aws:sqs:us-east-1:222222222222:dlq\\\",\\\"maxReceiveCount\\\":3}\"}}", "/",
                "sqs:setqueueattributes", "222222222222:dlq");
        String handle = Base64.getEncoder().encodeToString("{\"taskId\":\"t\",\"sourceArn\":\"arn:aws:sqs:us-east-1:222222222222:dlq\"}"
                .getBytes(StandardCharsets.UTF_8));
        denied("CancelMessageMoveTask", "{\"TaskHandle\":\"" + handle + "\"}", "/", "sqs:cancelmessagemovetask", "222222222222:dlq");
        allowed("ListQueues", "{}", "/");
        allowed("CreateQueue", "{\"QueueName\":\"q\"}", "/");
        allowed("CancelMessageMoveTask", "{\"TaskHandle\":\"not base64\"}", "/"); // the service answers that one
    }

    /** Issue 35: an empty QueueUrl with the queue in the path was allowed unchecked, then acted on the path's queue. */
    /**
     * Only a request whose evaluation reads the request's keys (a Condition or a policy variable) or
     * weighs more than INLINE_WEIGHT is sent off the event loop (AuthorizationPool); the others are
     * evaluated where they arrive.
     */
    @Test
    void onlyCostlyEvaluationsNeedThePool() throws Exception {
        assertThat(authz.needsPool(caller(a), resolved("SendMessage", "{\"QueueUrl\":\"/111111111111/q\"}", "/")))
                .as("a root in its own account, no policy anywhere").isFalse();
        assertThat(authz.needsPool(caller(a), resolved("SendMessage", "{\"QueueUrl\":\"/222222222222/q\"}", "/")))
                .as("another account's queue without a policy: nothing that reads the request").isFalse();
        policy("111111111111", "p", "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}");
        assertThat(authz.needsPool(caller(a), resolved("SendMessage", "{\"QueueUrl\":\"/111111111111/p\"}", "/")))
                .as("a queue Policy without conditions").isFalse();
        assertThat(authz.needsPool(caller(sender), resolvedFor(sender, request("SendMessage", Q1, "/"))))
                .as("a user's identity policy without conditions").isFalse();
        policy("111111111111", "c", "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"*\","
                + "\"Condition\":{\"StringLike\":{\"aws:UserAgent\":\"*evil*\"}}}");
        assertThat(authz.needsPool(caller(a), resolved("SendMessage", "{\"QueueUrl\":\"/111111111111/c\"}", "/")))
                .as("a queue Policy with a condition").isTrue();
        policy("111111111111", "v", "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:*\","
                + "\"Resource\":\"arn:aws:sqs:*:*:${aws:UserAgent}\"}");
        assertThat(authz.needsPool(caller(a), resolved("SendMessage", "{\"QueueUrl\":\"/111111111111/v\"}", "/")))
                .as("a queue Policy with a policy variable").isTrue();
        StringBuilder heavy = new StringBuilder();
        for (int i = 0; heavy.length() <= RequestAuthorization.INLINE_WEIGHT; i++) {
            heavy.append(i == 0 ? "" : ",").append("{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:*\","
                    + "\"Resource\":\"arn:aws:sqs:*:*:").append("n".repeat(60)).append(i).append("\"}");
        }
        policy("111111111111", "h", heavy.toString());
        assertThat(authz.needsPool(caller(a), resolved("SendMessage", "{\"QueueUrl\":\"/111111111111/h\"}", "/")))
                .as("queue Policy patterns longer than INLINE_WEIGHT in all").isTrue();
    }

    /** Inline or not, every policy is evaluated: the condition-free Deny denies, the conditional one reads the request's keys. */
    @Test
    void policiesEvaluatedInlineStillDecide() throws Exception {
        policy("111111111111", "p", "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}");
        assertThatThrownBy(() -> check(a, request("SendMessage", "{\"QueueUrl\":\"/111111111111/p\"}", "/")))
                .hasMessageContaining("with an explicit deny in a resource-based policy");
        check(a, request("ReceiveMessage", "{\"QueueUrl\":\"/111111111111/p\"}", "/"));
        policy("111111111111", "c", "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"*\","
                + "\"Condition\":{\"StringEquals\":{\"aws:UserAgent\":\"test-agent\"}}}");
        assertThatThrownBy(() -> check(a, request("ReceiveMessage", "{\"QueueUrl\":\"/111111111111/c\"}", "/")))
                .hasMessageContaining("with an explicit deny in a resource-based policy");
        queues.put("111111111111/t", new QueueAccess("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\","
                + "\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"*\",\"Condition\":{\"StringEquals\":"
                + "{\"aws:ResourceTag/team\":\"red\"}}}]}", Map.of("team", "red")));
        assertThatThrownBy(() -> check(a, request("ReceiveMessage", "{\"QueueUrl\":\"/111111111111/t\"}", "/")))
                .as("the queue's tags are keys too").hasMessageContaining("with an explicit deny in a resource-based policy");
    }

    @Test
    void anEmptyQueueUrlIsCheckedOnThePathsQueue() throws Exception {
        for (String op : new String[] {"ReceiveMessage", "GetQueueAttributes", "SendMessage", "DeleteQueue"}) {
            denied(op, "{\"QueueUrl\":\"\"}", "/222222222222/q", "sqs:" + op.toLowerCase(java.util.Locale.ROOT), "222222222222:q");
            denied(op, "{}", "/queue/q", "sqs:" + op.toLowerCase(java.util.Locale.ROOT), "000000000000:q");
            if (op.equals("SendMessage")) {
                continue; // what it may do, it still may (below)
            }
            assertThatThrownBy(() -> check(sender, request(op, "{\"QueueUrl\":\"\"}", "/q")))
                    .as(op).hasMessageContaining("is not authorized to perform: sqs:" + op.toLowerCase(java.util.Locale.ROOT));
        }
        check(sender, request("SendMessage", "{\"QueueUrl\":\"\"}", "/q")); // what it may do, it still may
    }

    @Test
    void anOperationNotInTheTableIsRefused() {
        assertThatThrownBy(() -> check(a, request("ListQueuesEverywhere", "{}", "/")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.errorType()).isEqualTo("InvalidAction"));
    }

    @Test
    void anonymousIsDenied() throws Exception {
        assertThatThrownBy(() -> check(Principal.anonymous(), request("ListQueues", "{}", "/")))
                .isInstanceOf(ApiException.class).hasMessage("Access to the resource https://sqs.us-east-1.amazonaws.com/ is denied.");
        assertThatThrownBy(() -> check(Principal.anonymous(), request("SendMessage", "{\"QueueUrl\":\"/111111111111/q\"}", "/")))
                .hasMessage("Access to the resource https://sqs.us-east-1.amazonaws.com/111111111111/q is denied.");
    }

    private static final String Q1 = "{\"QueueUrl\":\"http://h:1/111111111111/q\"}";
    private static final String Q2 = "{\"QueueUrl\":\"http://h:1/222222222222/q\"}";
    private final Principal bob = new Principal(io.hikyaku.identity.PrincipalType.USER, "222222222222",
            "arn:aws:iam::222222222222:user/bob", "AIDABOB", "bob", null,
            Map.of("all-sqs", "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}]}"),
            null);
    private final Principal sender = new Principal(io.hikyaku.identity.PrincipalType.USER, "111111111111",
            "arn:aws:iam::111111111111:user/sender", "AIDASENDER", "sender", null,
            Map.of("send", "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sqs:SendMessage\","
                    + "\"Resource\":\"arn:aws:sqs:*:111111111111:q\"}]}"),
            null);

    private void policy(String account, String name, String statements) {
        queues.put(account + "/" + name, new QueueAccess("{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}", Map.of()));
    }

    @Test
    void aUserWithOnlySendMessageCannotReceive() throws Exception {
        check(sender, request("SendMessage", Q1, "/"));
        check(sender, request("SendMessageBatch", Q1, "/"));
        assertThatThrownBy(() -> check(sender, request("ReceiveMessage", Q1, "/"))).hasMessage(
                "User: arn:aws:iam::111111111111:user/sender is not authorized to perform: sqs:receivemessage on resource: "
                        + "arn:aws:sqs:us-east-1:111111111111:q because no identity-based policy allows the sqs:receivemessage action");
        // the console's peek reads what a receive would
        assertThatThrownBy(() -> check(sender, request("Hikyaku.PeekMessages", Q1, "/"))).hasMessageContaining("sqs:receivemessage");
    }

    @Test
    void crossAccountNeedsTheQueuePolicyAndTheIdentityPolicy() throws Exception {
        ApiRequest send = request("SendMessage", Q1, "/");
        assertThatThrownBy(() -> check(bob, send)).hasMessageEndingWith("because no resource-based policy allows the sqs:sendmessage action");
        policy("111111111111", "q", "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"222222222222\"},\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"arn:aws:sqs:us-east-1:111111111111:q\"}");
        check(bob, send);
        // a user of account 2 without identity permission is still refused
        Principal bare = new Principal(io.hikyaku.identity.PrincipalType.USER, "222222222222", "arn:aws:iam::222222222222:user/bare",
                "AIDABARE", "bare", null, Map.of(), null);
        assertThatThrownBy(() -> check(bare, send)).hasMessageEndingWith("because no identity-based policy allows the sqs:sendmessage action");
        // owner-only actions cannot be granted to another account
        policy("111111111111", "q", "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}");
        check(bob, request("ReceiveMessage", Q1, "/"));
        assertThatThrownBy(() -> check(bob, request("SetQueueAttributes", Q1, "/"))).hasMessageContaining("sqs:setqueueattributes");
        assertThatThrownBy(() -> check(bob, request("DeleteQueue", Q1, "/"))).hasMessageContaining("sqs:deletequeue");
    }

    @Test
    void anExplicitDenyInTheQueuePolicyBeatsTheRoot() throws Exception {
        policy("111111111111", "q", "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\","
                + "\"Condition\":{\"NotIpAddress\":{\"aws:SourceIp\":\"192.168.0.0/16\"}}}");
        assertThatThrownBy(() -> check(a, request("SendMessage", Q1, "/"))).hasMessage(
                "User: arn:aws:iam::111111111111:root is not authorized to perform: sqs:sendmessage on resource: "
                        + "arn:aws:sqs:us-east-1:111111111111:q with an explicit deny in a resource-based policy");
        check(a, request("ReceiveMessage", Q1, "/"));
    }

    @Test
    void anonymousOnlyThroughPrincipalStar() throws Exception {
        ApiRequest send = request("SendMessage", Q2, "/");
        assertThatThrownBy(() -> check(Principal.anonymous(), send))
                .hasMessage("Access to the resource https://sqs.us-east-1.amazonaws.com/222222222222/q is denied.");
        policy("222222222222", "q", "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"222222222222\"},\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}");
        assertThatThrownBy(() -> check(Principal.anonymous(), send)).hasMessageContaining("is denied.");
        policy("222222222222", "q", "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}");
        check(Principal.anonymous(), send);
        assertThatThrownBy(() -> check(Principal.anonymous(), request("ReceiveMessage", Q2, "/"))).hasMessageContaining("is denied.");
    }

    @Test
    void conditionKeysComeFromTheRequestAndTheQueue() throws Exception {
        queues.put("111111111111/q", new QueueAccess("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":\"*\",\"Action\":\"sqs:ReceiveMessage\",\"Resource\":\"*\",\"Condition\":{"
                + "\"StringEquals\":{\"aws:ResourceTag/team\":\"blue\",\"aws:UserAgent\":\"test-agent\"},"
                + "\"Bool\":{\"aws:SecureTransport\":\"false\"},\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"},"
                + "\"DateLessThan\":{\"aws:CurrentTime\":\"2026-01-03T00:00:00Z\"},"
                + "\"NumericLessThan\":{\"aws:EpochTime\":\"1767400000\"}}}]}", Map.of("team", "blue")));
        check(bob, request("ReceiveMessage", Q1, "/"));
        queues.put("111111111111/q", new QueueAccess(queues.get("111111111111/q").policy(), Map.of("team", "red")));
        assertThatThrownBy(() -> check(bob, request("ReceiveMessage", Q1, "/"))).hasMessageContaining("sqs:receivemessage");
    }

    @Test
    void createQueueWithTagsAlsoNeedsTagQueueWithTheRequestTags() throws Exception {
        Principal creator = new Principal(io.hikyaku.identity.PrincipalType.USER, "111111111111",
                "arn:aws:iam::111111111111:user/creator", "AIDAC", "creator", null,
                Map.of("create", "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sqs:CreateQueue\",\"Resource\":\"*\"},"
                        + "{\"Effect\":\"Allow\",\"Action\":\"sqs:TagQueue\",\"Resource\":\"*\","
                        + "\"Condition\":{\"ForAllValues:StringEquals\":{\"aws:TagKeys\":[\"team\"]},\"StringLike\":{\"aws:RequestTag/team\":\"b*\"}}}]}"),
                null);
        check(creator, request("CreateQueue", "{\"QueueName\":\"n\"}", "/"));
        check(creator, request("CreateQueue", "{\"QueueName\":\"n\",\"tags\":{\"team\":\"blue\"}}", "/"));
        assertThatThrownBy(() -> check(creator, request("CreateQueue", "{\"QueueName\":\"n\",\"tags\":{\"team\":\"red\"}}", "/")))
                .hasMessageContaining("sqs:tagqueue on resource: arn:aws:sqs:us-east-1:111111111111:n");
        assertThatThrownBy(() -> check(creator, request("CreateQueue", "{\"QueueName\":\"n\",\"tags\":{\"cost\":\"b\"}}", "/")))
                .hasMessageContaining("sqs:tagqueue");
    }

    private void check(Principal who, ApiRequest request) {
        authz.authorize(caller(who), resolvedFor(who, request));
    }

    private static RequestContext caller(Principal who) {
        return new RequestContext(who, "10.1.2.3", false, Instant.parse("2026-01-02T03:04:05Z"), "test-agent");
    }

    private static io.hikyaku.api.ResolvedRequest resolvedFor(Principal who, ApiRequest request) {
        io.hikyaku.api.CallContext context = new io.hikyaku.api.CallContext(who.accountId(), "us-east-1", "http://h", null, "r",
                "000000000000");
        return io.hikyaku.api.SqsRequests.resolve(request, context);
    }

    private io.hikyaku.api.ResolvedRequest resolved(String action, String input, String path) throws Exception {
        return resolvedFor(a, request(action, input, path));
    }

    private void allowed(String action, String input, String path) throws Exception {
        check(a, request(action, input, path));
    }

    private void denied(String action, String input, String path, String iamAction, String resource) throws Exception {
        ApiRequest r = request(action, input, path);
        assertThatThrownBy(() -> check(a, r)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.errorType()).isEqualTo("AccessDenied");
            assertThat(e.getMessage()).isEqualTo("User: arn:aws:iam::111111111111:root is not authorized to perform: " + iamAction
                    + " on resource: arn:aws:sqs:us-east-1:" + resource + " because no resource-based policy allows the " + iamAction + " action");
        });
    }

    private static ApiRequest request(String action, String input, String path) throws Exception {
        return new ApiRequest(action, (ObjectNode) JSON.readTree(input), WireProtocol.JSON, false, path);
    }
}
