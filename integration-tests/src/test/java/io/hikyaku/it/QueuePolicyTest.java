package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyEvaluator;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.policy.PrincipalType;
import io.hikyaku.policy.RequestContext;
import io.hikyaku.policy.SqsActions;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The queue Policy attribute through SDK v2 (JSON): validated when set, with SQS's exact errors. */
class QueuePolicyTest extends SqsTestBase {

    private static final String INVALID = "Invalid value for the parameter Policy.";

    private static String policy(String queueArn, String principal, String actions) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"s\",\"Effect\":\"Allow\",\"Principal\":" + principal
                + ",\"Action\":" + actions + ",\"Resource\":\"" + queueArn + "\"}]}";
    }

    private void setPolicy(String url, String policy) {
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.POLICY, policy)));
    }

    @Test
    void aValidPolicyIsStoredAsSent() {
        String name = unique("pol");
        String url = createQueue(name);
        String p = policy(arn(name), "{\"AWS\":[\"111111111111\",\"arn:aws:iam::222222222222:user/bob\"]}",
                "[\"sqs:SendMessage\",\"sqs:Get*\"]");
        setPolicy(url, p);
        assertThat(attribute(url, QueueAttributeName.POLICY)).isEqualTo(p);
    }

    @Test
    void invalidJsonIsRefusedAndNothingChanges() {
        String name = unique("pol");
        String url = createQueue(name);
        String valid = policy(arn(name), "\"*\"", "\"sqs:SendMessage\"");
        setPolicy(url, valid);
        assertV2Error(() -> setPolicy(url, "{\"Version\":"), "InvalidAttributeValue", INVALID);
        assertV2Error(() -> setPolicy(url, "[]"), "InvalidAttributeValue", INVALID);
        assertThat(attribute(url, QueueAttributeName.POLICY)).isEqualTo(valid);
    }

    @Test
    void invalidGrammarIsRefused() {
        String name = unique("pol");
        String url = createQueue(name);
        String arn = arn(name);
        for (String bad : List.of(
                "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"sqs:*\",\"Resource\":\"*\"}]}",
                policy(arn, "\"*\"", "\"sqs:SendMessage\"").replace("Allow", "Allowed"),
                policy(arn, "{\"AWS\":\"arn:aws:iam::1111*\"}", "\"sqs:SendMessage\""),
                policy(arn, "\"*\"", "\"SendMessage\""),
                policy(arn, "\"*\"", "\"sqs:SendMessage\"").replace("\"Resource\"",
                        "\"Condition\":{\"IpAddress\":{\"aws:SourceIp\":\"10.0.0.300/8\"}},\"Resource\""),
                policy(arn, "\"*\"", "\"sqs:SendMessage\"").replace("\"Resource\"",
                        "\"Condition\":{\"StringEqualz\":{\"aws:username\":\"a\"}},\"Resource\""),
                policy(arn, "\"*\"", "\"sqs:SendMessage\"").replace("2012-10-17", "2012-10-18"))) {
            assertV2Error(() -> setPolicy(url, bad), "InvalidAttributeValue", INVALID);
        }
        assertThat(attributes(url, QueueAttributeName.POLICY)).isEmpty();
    }

    @Test
    void createQueueWithAnInvalidPolicyCreatesNothing() {
        String name = unique("pol");
        assertV2Error(() -> createQueue(name, Map.of(QueueAttributeName.POLICY, "{\"Statement\":\"no\"}")),
                "InvalidAttributeValue", INVALID);
        assertV2Error(() -> sqs.getQueueUrl(b -> b.queueName(name)), "AWS.SimpleQueueService.NonExistentQueue", null);
    }

    @Test
    void quotasAreOverLimit() {
        String name = unique("pol");
        String url = createQueue(name);
        String tenActions = IntStream.range(0, 10).mapToObj(i -> "\"sqs:A" + i + "\"").collect(Collectors.joining(",", "[", "]"));
        assertV2Error(() -> setPolicy(url, policy(arn(name), "\"*\"", tenActions)), "OverLimit", 403,
                "10 actions were found in a statement from the submitted policy, max allowed is 7");
        String big = "{\"Id\":\"" + "x".repeat(8192) + "\",\"Statement\":[]}";
        assertV2Error(() -> setPolicy(url, big), "OverLimit", 403, "Submitted policy is over max allowed size.");
        assertThat(attributes(url, QueueAttributeName.POLICY)).isEmpty();
    }

    @Test
    void theAddPermissionPolicyParsesEvaluatesAndCanBeSetBack() throws Exception {
        String name = unique("pol");
        String url = createQueue(name);
        sqs.addPermission(b -> b.queueUrl(url).label("readers").awsAccountIds("111111111111").actions("ReceiveMessage", "DeleteMessage"));
        String generated = attribute(url, QueueAttributeName.POLICY);
        Policy parsed = Policy.parse(generated, PolicyKind.RESOURCE);
        RequestContext reader = new RequestContext("arn:aws:iam::111111111111:root", "111111111111", PrincipalType.ACCOUNT,
                "111111111111", null, SqsActions.iamAction("DeleteMessageBatch"), arn(name), ACCOUNT, Map.of());
        assertThat(PolicyEvaluator.evaluate(reader, List.of(), parsed, null).allowed()).isTrue();
        assertThat(PolicyEvaluator.evaluate(reader.withRequest("sqs:SendMessage", arn(name), ACCOUNT), List.of(), parsed, null)
                .allowed()).isFalse();
        setPolicy(url, generated);
        assertThat(attribute(url, QueueAttributeName.POLICY)).isEqualTo(generated);
    }

    @Test
    void anEmptyPolicyRemovesThePolicy() {
        String name = unique("pol");
        String url = createQueue(name);
        setPolicy(url, policy(arn(name), "\"*\"", "\"sqs:SendMessage\""));
        setPolicy(url, "");
        assertThat(attributes(url, QueueAttributeName.POLICY)).isEmpty();
        setPolicy(url, "");
        assertThat(attributes(url, QueueAttributeName.POLICY)).isEmpty();
        String created = createQueue(unique("pol"), Map.of(QueueAttributeName.POLICY, ""));
        assertThat(attributes(created, QueueAttributeName.POLICY)).isEmpty();
    }

    /** Documents AWS accepts (AWS-validated tests): kept byte for byte; a part that cannot match an ARN matches nothing. */
    @Test
    void policiesAwsAcceptsAreStoredExactlyAsGiven() {
        String name = unique("pol");
        String url = createQueue(name);
        String placeholders = "{\"Version\":\"2012-10-17\",\"Id\":\"x\",\"Statement\":[{\"Sid\":\"s\",\"Effect\":\"Allow\","
                + "\"Principal\":{\"AWS\":\"*\"},\"Action\":\"sqs:SendMessage\",\"Resource\":\"queue_arn\","
                + "\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"topic_arn\"}}}]}";
        setPolicy(url, placeholders);
        assertThat(attribute(url, QueueAttributeName.POLICY)).isEqualTo(placeholders);
        String noResource = "{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [{\"Effect\": \"Allow\", "
                + "\"Principal\": \"*\", \"Action\": \"sqs:*\"}]\n}";
        setPolicy(url, noResource);
        assertThat(attribute(url, QueueAttributeName.POLICY)).isEqualTo(noResource);
        createQueue(unique("pol"), Map.of(QueueAttributeName.POLICY, placeholders));
    }
}
