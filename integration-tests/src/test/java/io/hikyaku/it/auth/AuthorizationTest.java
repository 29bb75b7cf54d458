package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.AmazonServiceException;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder;
import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SqsException;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;

/**
 * Authorization with real SDK clients (v2 over JSON, v1 over Query) against a server with auth sigv4:
 * identity policies, queue policies across accounts, explicit Deny, condition operators on the
 * request's keys, anonymous callers, owner-only actions, AddPermission, AssumeRole with a session
 * policy. Every refusal is checked for its status, code and exact text.
 */
class AuthorizationTest extends AuthTestBase {

    private static final String REGION = "us-east-1";

    private SqsClient rootA() {
        return sqs(ROOT_A, ROOT_A_SECRET);
    }

    private SqsClient rootB() {
        return sqs(ROOT_B, ROOT_B_SECRET);
    }

    private String queueOfA(String name) {
        return rootA().createQueue(b -> b.queueName(name)).queueUrl();
    }

    private void setPolicy(String url, String statements) {
        rootA().setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY,
                "{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}")));
    }

    private static String arnOfA(String name) {
        return "arn:aws:sqs:" + REGION + ":" + A + ":" + name;
    }

    private static void denied(ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(SqsException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(403);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
            assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
        });
    }

    /** Behaviour 22 with authentication on: an empty Policy removes the policy. */
    @Test
    void anEmptyPolicyRemovesThePolicy() {
        String url = queueOfA("emptypolicy");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"" + arnOfA("emptypolicy") + "\"}");
        rootA().setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, "")));
        assertThat(rootA().getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.POLICY)).attributes())
                .isEmpty();
    }

    @Test
    void aUserAllowedOnlyToSendCannotReceiveInEitherProtocol() {
        String url = rootA().getQueueUrl(b -> b.queueName("orders")).queueUrl();
        SqsClient alice = sqs(ALICE_1, ALICE_SECRET);
        alice.sendMessage(b -> b.queueUrl(url).messageBody("from alice"));
        String message = "User: arn:aws:iam::" + A + ":user/alice is not authorized to perform: sqs:receivemessage on resource: "
                + arnOfA("orders") + " because no identity-based policy allows the sqs:receivemessage action";
        denied(() -> alice.receiveMessage(b -> b.queueUrl(url)), message);
        denied(() -> alice.listQueues(), "User: arn:aws:iam::" + A + ":user/alice is not authorized to perform: sqs:listqueues"
                + " on resource: * because no identity-based policy allows the sqs:listqueues action");
        AmazonSQS v1 = AmazonSQSClientBuilder.standard()
                .withEndpointConfiguration(new AwsClientBuilder.EndpointConfiguration(endpoint, REGION))
                .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(ALICE_1, ALICE_SECRET))).build();
        try {
            v1.sendMessage(url, "over query");
            assertThatThrownBy(() -> v1.receiveMessage(url)).isInstanceOfSatisfying(AmazonServiceException.class, e -> {
                assertThat(e.getStatusCode()).isEqualTo(403);
                assertThat(e.getErrorCode()).isEqualTo("AccessDenied");
                assertThat(e.getErrorMessage()).isEqualTo(message);
            });
        } finally {
            v1.shutdown();
        }
    }

    @Test
    void crossAccountNeedsAQueuePolicy() {
        String url = queueOfA("xacct");
        SqsClient b = rootB();
        denied(() -> b.sendMessage(r -> r.queueUrl(url).messageBody("x")), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:sendmessage on resource: " + arnOfA("xacct")
                + " because no resource-based policy allows the sqs:sendmessage action");
        denied(() -> b.getQueueUrl(r -> r.queueName("xacct").queueOwnerAWSAccountId(A)), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:getqueueurl on resource: " + arnOfA("xacct")
                + " because no resource-based policy allows the sqs:getqueueurl action");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::" + B + ":root\"},"
                + "\"Action\":[\"sqs:SendMessage\",\"sqs:GetQueueUrl\"],\"Resource\":\"" + arnOfA("xacct") + "\"}");
        assertThat(b.getQueueUrl(r -> r.queueName("xacct").queueOwnerAWSAccountId(A)).queueUrl()).isEqualTo(url);
        b.sendMessage(r -> r.queueUrl(url).messageBody("granted"));
        b.sendMessageBatch(r -> r.queueUrl(url).entries(e -> e.id("1").messageBody("batched")));
        denied(() -> b.receiveMessage(r -> r.queueUrl(url)), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:receivemessage on resource: " + arnOfA("xacct")
                + " because no resource-based policy allows the sqs:receivemessage action");
        // B's own listing never shows A's queues
        assertThat(b.listQueues().queueUrls()).noneMatch(u -> u.contains("/" + A + "/"));
    }

    @Test
    void ownerOnlyActionsCannotBeGrantedToAnotherAccount() {
        String url = queueOfA("owner-only");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}");
        SqsClient b = rootB();
        b.sendMessage(r -> r.queueUrl(url).messageBody("shared"));
        assertThat(b.receiveMessage(r -> r.queueUrl(url)).messages()).hasSize(1);
        for (var call : List.<Map.Entry<String, ThrowingCallable>>of(
                Map.entry("setqueueattributes", () -> b.setQueueAttributes(r -> r.queueUrl(url).attributes(Map.of(QueueAttributeName.DELAY_SECONDS, "1")))),
                Map.entry("deletequeue", () -> b.deleteQueue(r -> r.queueUrl(url))),
                Map.entry("tagqueue", () -> b.tagQueue(r -> r.queueUrl(url).tags(Map.of("k", "v")))),
                Map.entry("untagqueue", () -> b.untagQueue(r -> r.queueUrl(url).tagKeys("k"))),
                Map.entry("listqueuetags", () -> b.listQueueTags(r -> r.queueUrl(url))),
                Map.entry("addpermission", () -> b.addPermission(r -> r.queueUrl(url).label("l").awsAccountIds(B).actions("SendMessage"))),
                Map.entry("removepermission", () -> b.removePermission(r -> r.queueUrl(url).label("l"))))) {
            denied(call.getValue(), "User: arn:aws:iam::" + B + ":root is not authorized to perform: sqs:" + call.getKey()
                    + " on resource: " + arnOfA("owner-only") + " because no resource-based policy allows the sqs:" + call.getKey() + " action");
        }
        assertThat(rootA().getQueueUrl(r -> r.queueName("owner-only")).queueUrl()).isEqualTo(url); // still there
    }

    @Test
    void anExplicitDenyBeatsAnyAllow() {
        String url = queueOfA("deny-wins");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:*\",\"Resource\":\"*\"},"
                + "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}");
        rootB().receiveMessage(r -> r.queueUrl(url));
        denied(() -> rootB().sendMessage(r -> r.queueUrl(url).messageBody("x")), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:sendmessage on resource: " + arnOfA("deny-wins")
                + " with an explicit deny in a resource-based policy");
        // the account root too
        denied(() -> rootA().sendMessage(r -> r.queueUrl(url).messageBody("x")), "User: arn:aws:iam::" + A
                + ":root is not authorized to perform: sqs:sendmessage on resource: " + arnOfA("deny-wins")
                + " with an explicit deny in a resource-based policy");
    }

    static Stream<Arguments> conditions() {
        String far = "2099-01-01T00:00:00Z";
        return Stream.of(
                Arguments.of("{\"StringEquals\":{\"aws:PrincipalAccount\":\"" + B + "\"}}", true),
                Arguments.of("{\"StringEquals\":{\"aws:PrincipalAccount\":\"333333333333\"}}", false),
                Arguments.of("{\"StringLike\":{\"aws:UserAgent\":\"*aws-sdk-java*\"}}", true),
                Arguments.of("{\"StringLike\":{\"aws:UserAgent\":\"*Boto3*\"}}", false),
                Arguments.of("{\"IpAddress\":{\"aws:SourceIp\":[\"127.0.0.0/8\",\"::1/128\"]}}", true),
                Arguments.of("{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}", false),
                Arguments.of("{\"NotIpAddress\":{\"aws:SourceIp\":\"10.0.0.0/8\"}}", true),
                Arguments.of("{\"NotIpAddress\":{\"aws:SourceIp\":[\"127.0.0.0/8\",\"::1/128\"]}}", false),
                Arguments.of("{\"Bool\":{\"aws:SecureTransport\":\"false\"}}", true),
                Arguments.of("{\"Bool\":{\"aws:SecureTransport\":\"true\"}}", false),
                Arguments.of("{\"DateLessThan\":{\"aws:CurrentTime\":\"" + far + "\"}}", true),
                Arguments.of("{\"DateLessThan\":{\"aws:CurrentTime\":\"2020-01-01T00:00:00Z\"}}", false),
                Arguments.of("{\"NumericLessThan\":{\"aws:EpochTime\":\"4070908800\"}}", true),
                Arguments.of("{\"NumericLessThan\":{\"aws:EpochTime\":\"1000\"}}", false),
                Arguments.of("{\"ArnLike\":{\"aws:PrincipalArn\":\"arn:aws:iam::" + B + ":*\"}}", true),
                Arguments.of("{\"ArnLike\":{\"aws:PrincipalArn\":\"arn:aws:iam::333333333333:*\"}}", false),
                Arguments.of("{\"ArnEqualsIfExists\":{\"aws:SourceArn\":\"arn:aws:sns:us-east-1:" + A + ":t\"}}", true),
                Arguments.of("{\"ArnEquals\":{\"aws:SourceArn\":\"arn:aws:sns:us-east-1:" + A + ":t\"}}", false),
                Arguments.of("{\"Null\":{\"aws:SourceArn\":\"true\"}}", true),
                Arguments.of("{\"Null\":{\"aws:SourceArn\":\"false\"}}", false),
                Arguments.of("{\"ForAnyValue:StringEquals\":{\"aws:PrincipalType\":[\"User\",\"Account\"]}}", true),
                Arguments.of("{\"ForAnyValue:StringEquals\":{\"aws:PrincipalType\":[\"User\",\"AssumedRole\"]}}", false));
    }

    @ParameterizedTest
    @MethodSource("conditions")
    void conditionOperatorsOnTheRequestsKeys(String condition, boolean allowed) {
        String url = queueOfA("conditions");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"" + arnOfA("conditions") + "\",\"Condition\":" + condition + "}");
        ThrowingCallable send = () -> rootB().sendMessage(r -> r.queueUrl(url).messageBody("c"));
        if (allowed) {
            assertThat(rootB().sendMessage(r -> r.queueUrl(url).messageBody("c")).messageId()).isNotEmpty();
        } else {
            denied(send, "User: arn:aws:iam::" + B + ":root is not authorized to perform: sqs:sendmessage on resource: "
                    + arnOfA("conditions") + " because no resource-based policy allows the sqs:sendmessage action");
        }
    }

    @Test
    void theServersClockDecidesDateConditions() {
        String url = queueOfA("clocked");
        String until = clock.instant().plusSeconds(60).toString();
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"*\",\"Condition\":{\"DateLessThan\":{\"aws:CurrentTime\":\"" + until + "\"}}}");
        rootB().sendMessage(r -> r.queueUrl(url).messageBody("in time"));
        clock.advance(Duration.ofSeconds(120));
        try {
            denied(() -> rootB().sendMessage(r -> r.queueUrl(url).messageBody("late")), "User: arn:aws:iam::" + B
                    + ":root is not authorized to perform: sqs:sendmessage on resource: " + arnOfA("clocked")
                    + " because no resource-based policy allows the sqs:sendmessage action");
        } finally {
            clock.advance(Duration.ofSeconds(-120));
        }
    }

    @Test
    void resourceTagsAndRequestTagsAreConditionKeys() {
        String url = queueOfA("tagged");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:SendMessage\","
                + "\"Resource\":\"*\",\"Condition\":{\"StringEquals\":{\"aws:ResourceTag/team\":\"blue\"}}},"
                + "{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"sqs:TagQueue\",\"Resource\":\"*\","
                + "\"Condition\":{\"ForAnyValue:StringEquals\":{\"aws:TagKeys\":[\"secret\"]}}}");
        denied(() -> rootB().sendMessage(r -> r.queueUrl(url).messageBody("x")), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:sendmessage on resource: " + arnOfA("tagged")
                + " because no resource-based policy allows the sqs:sendmessage action");
        rootA().tagQueue(r -> r.queueUrl(url).tags(Map.of("team", "blue")));
        rootB().sendMessage(r -> r.queueUrl(url).messageBody("x"));
        denied(() -> rootA().tagQueue(r -> r.queueUrl(url).tags(Map.of("secret", "1"))), "User: arn:aws:iam::" + A
                + ":root is not authorized to perform: sqs:tagqueue on resource: " + arnOfA("tagged")
                + " with an explicit deny in a resource-based policy");
    }

    @Test
    void anonymousCallersOnlyThroughPrincipalStar() {
        String url = queueOfA("public");
        SqsClient anonymous = sqs(AnonymousCredentialsProvider.create());
        denied(() -> anonymous.sendMessage(r -> r.queueUrl(url).messageBody("x")),
                "Access to the resource https://sqs.us-east-1.amazonaws.com/" + A + "/public is denied.");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + B + "\"},\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}");
        denied(() -> anonymous.sendMessage(r -> r.queueUrl(url).messageBody("x")),
                "Access to the resource https://sqs.us-east-1.amazonaws.com/" + A + "/public is denied.");
        setPolicy(url, "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}");
        anonymous.sendMessage(r -> r.queueUrl(url).messageBody("anonymous"));
        denied(() -> anonymous.receiveMessage(r -> r.queueUrl(url)),
                "Access to the resource https://sqs.us-east-1.amazonaws.com/" + A + "/public is denied.");
        denied(anonymous::listQueues, "Access to the resource https://sqs.us-east-1.amazonaws.com/ is denied.");
        assertThat(rootA().receiveMessage(r -> r.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("anonymous");
    }

    @Test
    void addPermissionGrantsWhatItNames() {
        String url = queueOfA("added");
        rootA().addPermission(r -> r.queueUrl(url).label("b-sends").awsAccountIds(B).actions("SendMessage"));
        rootB().sendMessage(r -> r.queueUrl(url).messageBody("via AddPermission"));
        denied(() -> rootB().receiveMessage(r -> r.queueUrl(url)), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:receivemessage on resource: " + arnOfA("added")
                + " because no resource-based policy allows the sqs:receivemessage action");
        rootA().removePermission(r -> r.queueUrl(url).label("b-sends"));
        denied(() -> rootB().sendMessage(r -> r.queueUrl(url).messageBody("x")), "User: arn:aws:iam::" + B
                + ":root is not authorized to perform: sqs:sendmessage on resource: " + arnOfA("added")
                + " because no resource-based policy allows the sqs:sendmessage action");
    }

    @Test
    void anAssumedRoleActsWithTheRolesRightsNarrowedByItsSessionPolicy() {
        String url = queueOfA("role-work");
        software.amazon.awssdk.core.SdkGlobalTime.setGlobalTimeOffset(0);
        AssumeRoleResponse full = sts(ROOT_B, ROOT_B_SECRET).assumeRole(b -> b.roleArn(WORKER_ARN).roleSessionName("full"));
        SqsClient role = sqs(AwsSessionCredentials.create(full.credentials().accessKeyId(),
                full.credentials().secretAccessKey(), full.credentials().sessionToken()));
        role.sendMessage(r -> r.queueUrl(url).messageBody("by role"));
        assertThat(role.receiveMessage(r -> r.queueUrl(url)).messages()).hasSize(1);

        AssumeRoleResponse narrow = sts(ROOT_B, ROOT_B_SECRET).assumeRole(b -> b.roleArn(WORKER_ARN).roleSessionName("narrow")
                .policy("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}]}"));
        SqsClient narrowed = sqs(AwsSessionCredentials.create(narrow.credentials().accessKeyId(),
                narrow.credentials().secretAccessKey(), narrow.credentials().sessionToken()));
        narrowed.sendMessage(r -> r.queueUrl(url).messageBody("narrow"));
        denied(() -> narrowed.receiveMessage(r -> r.queueUrl(url)), "User: arn:aws:sts::" + A
                + ":assumed-role/worker/narrow is not authorized to perform: sqs:receivemessage on resource: " + arnOfA("role-work")
                + " because no session policy allows the sqs:receivemessage action");
    }

    @Test
    void aDeadLetterQueueInAnotherAccountIsRefused() {
        String dlq = rootB().createQueue(r -> r.queueName("b-dlq")).queueUrl();
        String url = queueOfA("redriven");
        String dlqArn = "arn:aws:sqs:" + REGION + ":" + B + ":b-dlq";
        denied(() -> rootA().setQueueAttributes(r -> r.queueUrl(url).attributes(Map.of(QueueAttributeName.REDRIVE_POLICY,
                        "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":3}"))),
                "User: arn:aws:iam::" + A + ":root is not authorized to perform: sqs:setqueueattributes on resource: " + dlqArn
                        + " because no resource-based policy allows the sqs:setqueueattributes action");
        assertThat(dlq).endsWith("/" + B + "/b-dlq");
    }
}
