package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A topic delivering as sns.amazonaws.com: the target queue's policy decides, as at AWS (same account: see the class). */
class QueueDeliveryPolicyTest {

    private static final String TOPIC = "arn:aws:sns:us-east-1:111111111111:orders";
    private static final String OWN_QUEUE = "arn:aws:sqs:us-east-1:111111111111:q";
    private static final String OTHER_QUEUE = "arn:aws:sqs:us-east-1:222222222222:q";
    private final QueueDeliveryPolicy enforced = new QueueDeliveryPolicy(true);

    private static String policy(String effect, String principal, String queue, String condition) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"" + effect + "\",\"Principal\":" + principal
                + ",\"Action\":\"sqs:SendMessage\",\"Resource\":\"" + queue + "\"" + condition + "}]}";
    }

    @Test
    void anotherAccountsQueueNeedsAGrantForTheTopic() {
        String cond = ",\"Condition\":{\"ArnEquals\":{\"aws:SourceArn\":\"" + TOPIC + "\"}}";
        assertThat(enforced.allows(TOPIC, OTHER_QUEUE, null)).isFalse();
        assertThat(enforced.allows(TOPIC, OTHER_QUEUE, policy("Allow", "{\"Service\":\"sns.amazonaws.com\"}", OTHER_QUEUE, cond))).isTrue();
        assertThat(enforced.allows(TOPIC, OTHER_QUEUE, policy("Allow", "{\"AWS\":\"*\"}", OTHER_QUEUE,
                ",\"Condition\":{\"ArnLike\":{\"aws:SourceArn\":\"arn:aws:sns:*:111111111111:*\"}}"))).isTrue(); // SDK helper form
        assertThat(enforced.allows("arn:aws:sns:us-east-1:111111111111:other", OTHER_QUEUE,
                policy("Allow", "{\"Service\":\"sns.amazonaws.com\"}", OTHER_QUEUE, cond))).isFalse();
        assertThat(enforced.allows(TOPIC, OTHER_QUEUE, policy("Allow", "{\"Service\":\"lambda.amazonaws.com\"}", OTHER_QUEUE, ""))).isFalse();
        assertThat(enforced.allows(TOPIC, OTHER_QUEUE, policy("Allow", "{\"Service\":\"sns.amazonaws.com\"}", OTHER_QUEUE,
                ",\"Condition\":{\"StringEquals\":{\"aws:SourceAccount\":\"111111111111\"}}"))).isTrue();
    }

    @Test
    void theTopicsOwnQueueReceivesUnlessExplicitlyDenied() {
        assertThat(enforced.allows(TOPIC, OWN_QUEUE, null)).isTrue();
        assertThat(enforced.allows(TOPIC, OWN_QUEUE, policy("Allow", "{\"AWS\":\"arn:aws:iam::111111111111:root\"}", OWN_QUEUE, ""))).isTrue();
        assertThat(enforced.allows(TOPIC, OWN_QUEUE, policy("Deny", "{\"Service\":\"sns.amazonaws.com\"}", OWN_QUEUE, ""))).isFalse();
        assertThat(new QueueDeliveryPolicy(false).allows(TOPIC, OTHER_QUEUE, null)).isTrue(); // auth none
    }
}
