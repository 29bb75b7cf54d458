package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnsStateTest {

    static final String ACCOUNT = "000000000000";
    static final String QUEUE = "arn:aws:sqs:us-east-1:000000000000:orders";
    final SnsState state = new SnsState();
    int ids;

    static SnsCommand.CreateTopic create(String name, Map<String, String> attributes) {
        return new SnsCommand.CreateTopic(ACCOUNT, "us-east-1", name, attributes, Map.of(), 1_000L);
    }

    SnsCommand.Subscribe subscribe(String topic, String protocol, String endpoint, Map<String, String> attributes) {
        ids++;
        return new SnsCommand.Subscribe(ACCOUNT, topic, protocol, endpoint, attributes,
                "00000000-0000-0000-0000-00000000000" + ids, "token-" + ids, "arn:aws:iam::000000000000:root", 2_000L);
    }

    static void refused(ThrowingCall call, String code, int status, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(SnsException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void createTopicIsIdempotentAndRefusesDifferentAttributesOrTags() throws Exception {
        String arn = state.apply(create("orders", Map.of("DisplayName", "Orders"))).arn();
        assertThat(arn).isEqualTo("arn:aws:sns:us-east-1:000000000000:orders");
        assertThat(state.apply(create("orders", Map.of("DisplayName", "Orders"))).arn()).isEqualTo(arn);
        refused(() -> state.apply(create("orders", Map.of("DisplayName", "Other"))), "InvalidParameter", 400,
                "Invalid parameter: Attributes Reason: Topic already exists with different attributes");
        refused(() -> state.apply(new SnsCommand.CreateTopic(ACCOUNT, "us-east-1", "orders", Map.of(), Map.of("k", "v"), 1L)),
                "InvalidParameter", 400, "Invalid parameter: Tags Reason: Topic already exists with different tags");
        refused(() -> state.apply(create("bad name", Map.of())), "InvalidParameter", 400, "Invalid parameter: Topic Name");
        refused(() -> state.apply(create("x.fifo", Map.of())), "InvalidParameter", 400, "Invalid parameter: Topic Name");
    }

    @Test
    void defaultTopicAttributesAndFifoTopics() throws Exception {
        String arn = state.apply(create("orders", Map.of())).arn();
        Map<String, String> a = state.topicAttributes(arn);
        assertThat(a).containsEntry("Owner", ACCOUNT).containsEntry("DisplayName", "")
                .containsEntry("SubscriptionsConfirmed", "0").containsEntry("TopicArn", arn)
                .containsEntry("EffectiveDeliveryPolicy", SnsDefaults.EFFECTIVE_DELIVERY_POLICY)
                .doesNotContainKeys("FifoTopic", "SignatureVersion", "MaximumMessageSize");
        assertThat(a.get("Policy")).contains("\"Id\":\"__default_policy_ID\"", "\"AWS:SourceOwner\":\"" + ACCOUNT + "\"");
        String fifo = state.apply(create("orders.fifo", Map.of("FifoTopic", "true", "FifoThroughputScope", "MessageGroup"))).arn();
        assertThat(state.topicAttributes(fifo)).containsEntry("FifoTopic", "true")
                .containsEntry("ContentBasedDeduplication", "false").containsEntry("FifoThroughputScope", "MessageGroup");
        refused(() -> state.apply(create("plain", Map.of("FifoTopic", "true"))), "InvalidParameter", 400,
                "Invalid parameter: Fifo Topic names must end with .fifo and must be made up of only uppercase and "
                        + "lowercase ASCII letters, numbers, underscores, and hyphens, and must be between 1 and 256 characters long.");
    }

    @Test
    void setTopicAttributesValidatesEachAttribute() throws Exception {
        String arn = state.apply(create("orders", Map.of())).arn();
        state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "MaximumMessageSize", "1048576"));
        state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "SignatureVersion", "2"));
        state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "KmsMasterKeyId", "alias/mine"));
        assertThat(state.topicAttributes(arn)).containsEntry("MaximumMessageSize", "1048576")
                .containsEntry("SignatureVersion", "2").containsEntry("KmsMasterKeyId", "alias/mine");
        refused(() -> state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "MaximumMessageSize", "1023")),
                "InvalidParameter", 400,
                "Invalid parameter: MaximumMessageSize: Invalid value [1023]. Must be an integer between 1024 and 1048576.");
        refused(() -> state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "ContentBasedDeduplication", "true")),
                "InvalidParameter", 400,
                "Invalid parameter: ContentBasedDeduplication: Content based deduplication can only be set for FIFO topics");
        refused(() -> state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "Policy", "{not json")),
                "InvalidParameter", 400, "Invalid parameter: Policy Error: null");
        refused(() -> state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn, "Bogus", "x")),
                "InvalidParameter", 400, "Invalid parameter: AttributeName");
        refused(() -> state.apply(new SnsCommand.SetTopicAttribute(ACCOUNT, arn + "x", "DisplayName", "x")),
                "NotFound", 404, "Topic does not exist");
    }

    @Test
    void subscriptionsByProtocolWithAwsErrors() throws Exception {
        String topic = state.apply(create("orders", Map.of())).arn();
        String sqs = state.apply(subscribe(topic, "sqs", QUEUE, Map.of("RawMessageDelivery", "true"))).arn();
        assertThat(sqs).startsWith(topic + ":");
        assertThat(state.apply(subscribe(topic, "sqs", QUEUE, Map.of("RawMessageDelivery", "true"))).arn()).isEqualTo(sqs);
        refused(() -> state.apply(subscribe(topic, "sqs", QUEUE, Map.of("RawMessageDelivery", "false"))),
                "InvalidParameter", 400, "Invalid parameter: Attributes Reason: Subscription already exists with different attributes");
        assertThat(state.subscriptionAttributes(sqs)).containsEntry("PendingConfirmation", "false")
                .containsEntry("ConfirmationWasAuthenticated", "true").containsEntry("RawMessageDelivery", "true")
                .containsEntry("Protocol", "sqs").containsEntry("Endpoint", QUEUE);
        String http = state.apply(subscribe(topic, "http", "http://example.com/", Map.of())).arn();
        assertThat(state.subscriptionAttributes(http)).containsEntry("PendingConfirmation", "true");
        assertThat(state.subscriptionRows(ACCOUNT, topic)).extracting(SnsState.SubscriptionRow::subscriptionArn)
                .contains(sqs, "PendingConfirmation");
        refused(() -> state.apply(new SnsCommand.ConfirmSubscription(ACCOUNT, topic, "wrong", false, 3L)),
                "InvalidParameter", 400, "Invalid parameter: Token");
        assertThat(state.apply(new SnsCommand.ConfirmSubscription(ACCOUNT, topic, "token-" + ids, false, 3L)).arn()).isEqualTo(http);
        assertThat(state.topicAttributes(topic)).containsEntry("SubscriptionsConfirmed", "2");
        refused(() -> state.apply(subscribe(topic, "email", "a@example.com", Map.of())), "InvalidParameter", 400,
                "Invalid parameter: Amazon SNS does not support this protocol string: email");
        refused(() -> state.apply(subscribe(topic, "sqs", "http://127.0.0.1:9324/000000000000/q", Map.of())),
                "InvalidParameter", 400, "Invalid parameter: SQS endpoint ARN");
        refused(() -> state.apply(subscribe(topic, "sqs", QUEUE + ".fifo", Map.of())), "InvalidParameter", 400,
                "Invalid parameter: Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics");
        refused(() -> state.apply(subscribe(topic, "sqs", "arn:aws:sqs:us-east-1:000000000000:b",
                        Map.of("RawMessageDelivery", "wrongvalue"))), "InvalidParameter", 400,
                "Invalid parameter: Attributes Reason: RawMessageDelivery: Invalid value [wrongvalue]. Must be true or false.");
        state.apply(new SnsCommand.Unsubscribe(ACCOUNT, sqs));
        refused(() -> state.subscriptionAttributes(sqs), "NotFound", 404, "Subscription does not exist");
        assertThat(state.topicAttributes(topic)).containsEntry("SubscriptionsDeleted", "1");
    }

    @Test
    void anUnsubscribeConfirmationsTokenRestoresTheSubscriptionOnceWithinTwoDays() throws Exception {
        String topic = state.apply(create("restore", Map.of())).arn();
        String http = state.apply(subscribe(topic, "http", "http://127.0.0.1:1/h", Map.of("RawMessageDelivery", "true"))).arn();
        state.apply(new SnsCommand.ConfirmSubscription(ACCOUNT, topic, "token-" + ids, false, 3L));
        String before = state.digest();
        state.apply(new SnsCommand.Unsubscribe(ACCOUNT, http, "restore-1", 10L));
        assertThat(state.digest()).isNotEqualTo(before);
        refused(() -> state.subscriptionAttributes(http), "NotFound", 404, "Subscription does not exist");
        assertThat(state.apply(new SnsCommand.ConfirmSubscription(ACCOUNT, topic, "restore-1", false, 20L)).arn()).isEqualTo(http);
        assertThat(state.subscriptionAttributes(http)).containsEntry("RawMessageDelivery", "true")
                .containsEntry("PendingConfirmation", "false");
        refused(() -> state.apply(new SnsCommand.ConfirmSubscription(ACCOUNT, topic, "restore-1", false, 30L)),
                "InvalidParameter", 400, "Invalid parameter: Token");
        state.apply(new SnsCommand.Unsubscribe(ACCOUNT, http, "restore-2", 100L));
        refused(() -> state.apply(new SnsCommand.ConfirmSubscription(ACCOUNT, topic, "restore-2", false,
                100L + SnsState.RESTORE_MILLIS + 1)), "InvalidParameter", 400, "Invalid parameter: Token");
    }

    @Test
    void filterPoliciesInTerraformsOrderAndTheirRefusals() throws Exception {
        String topic = state.apply(create("orders", Map.of())).arn();
        String sub = state.apply(subscribe(topic, "sqs", QUEUE, Map.of())).arn();
        refused(() -> state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "FilterPolicy", "{\"a\":{\"b\":[1]}}")),
                "InvalidParameter", 400,
                "Invalid parameter: Filter policy scope MessageAttributes does not support nested filter policy");
        assertThat(state.subscriptionAttributes(sub)).doesNotContainKey("FilterPolicy");
        state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "FilterPolicyScope", "MessageBody"));
        state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "FilterPolicy", "{\"a\":{\"b\":[1]}}"));
        assertThat(state.subscriptionAttributes(sub)).containsEntry("FilterPolicyScope", "MessageBody");
        refused(() -> state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "FilterPolicyScope", "MessageAttributes")),
                "InvalidParameter", 400,
                "Invalid parameter: Filter policy scope MessageAttributes does not support nested filter policy");
        assertThat(state.subscriptionAttributes(sub)).containsEntry("FilterPolicyScope", "MessageBody");
        refused(() -> state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "FilterPolicyScope", "RandomValue")),
                "InvalidParameter", 400,
                "Invalid parameter: FilterPolicyScope: Invalid value [RandomValue]. Please use either MessageBody or MessageAttributes");
        refused(() -> state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "FilterPolicy", "{\"a\":[]}")),
                "InvalidParameter", 400, "Invalid parameter: FilterPolicy: Empty arrays are not allowed");
        String other = state.apply(subscribe(topic, "sqs", "arn:aws:sqs:us-east-1:000000000000:c",
                Map.of("FilterPolicy", "{\"a\":[{\"prefix\":\"x\"}]}"))).arn();
        assertThat(state.subscriptionAttributes(other)).containsEntry("FilterPolicyScope", "MessageAttributes");
        refused(() -> state.apply(subscribe(topic, "sqs", "arn:aws:sqs:us-east-1:000000000000:d",
                        Map.of("FilterPolicy", "{\"a\":[{\"wrong-operator\":1}]}"))), "InvalidParameter", 400,
                "Invalid parameter: Attributes Reason: FilterPolicy: Unrecognized match type wrong-operator");
        refused(() -> state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "RedrivePolicy", "{\"deadLetterTargetArn\":\"x\"}")),
                "InvalidParameter", 400, "Invalid parameter: RedrivePolicy: deadLetterTargetArn is an invalid arn");
        state.apply(new SnsCommand.SetSubscriptionAttribute(ACCOUNT, sub, "RedrivePolicy",
                "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\"}"));
    }

    @Test
    void tagsAndPermissions() throws Exception {
        String topic = state.apply(create("orders", Map.of())).arn();
        state.apply(new SnsCommand.TagResource(ACCOUNT, topic, Map.of("team", "a", "env", "dev")));
        state.apply(new SnsCommand.UntagResource(ACCOUNT, topic, List.of("env")));
        assertThat(state.tags(topic)).isEqualTo(Map.of("team", "a"));
        refused(() -> state.apply(new SnsCommand.TagResource(ACCOUNT, topic + "x", Map.of("a", "b"))),
                "ResourceNotFound", 404, "Resource does not exist");
        state.apply(new SnsCommand.AddPermission(ACCOUNT, topic, "shared", List.of("111122223333"), List.of("Publish")));
        assertThat(state.topicAttributes(topic).get("Policy"))
                .contains("\"Sid\":\"shared\"", "arn:aws:iam::111122223333:root", "SNS:Publish", "__default_statement_ID");
        refused(() -> state.apply(new SnsCommand.AddPermission(ACCOUNT, topic, "shared", List.of("1"), List.of("Publish"))),
                "InvalidParameter", 400, "Invalid parameter: Statement already exists");
        state.apply(new SnsCommand.RemovePermission(ACCOUNT, topic, "shared"));
        assertThat(state.topicAttributes(topic).get("Policy")).doesNotContain("shared");
    }

    @Test
    void deleteTopicIsIdempotentAndTakesItsSubscriptions() throws Exception {
        String topic = state.apply(create("orders", Map.of())).arn();
        String sub = state.apply(subscribe(topic, "sqs", QUEUE, Map.of())).arn();
        state.apply(new SnsCommand.DeleteTopic(ACCOUNT, topic));
        state.apply(new SnsCommand.DeleteTopic(ACCOUNT, topic));
        refused(() -> state.subscriptionAttributes(sub), "NotFound", 404, "Subscription does not exist");
        assertThat(state.topicArns(ACCOUNT)).isEmpty();
        refused(() -> state.apply(new SnsCommand.DeleteTopic(ACCOUNT, "orders")), "InvalidParameter", 400,
                "Invalid parameter: TopicArn Reason: An ARN must have at least 6 elements, not 1");
    }
}
