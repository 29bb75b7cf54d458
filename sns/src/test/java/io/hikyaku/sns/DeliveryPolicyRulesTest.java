package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** DeliveryPolicy validation, and the EffectiveDeliveryPolicy a subscription reports. */
class DeliveryPolicyRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static void subscription(String json) throws Exception {
        DeliveryPolicyRules.checkSubscription(JSON.readTree(json));
    }

    private static void refusedSubscription(String json, String text) {
        assertThatThrownBy(() -> subscription(json)).isInstanceOfSatisfying(SnsException.class, e -> {
            assertThat(e.code()).isEqualTo("InvalidParameter");
            assertThat(e.getMessage()).isEqualTo("Invalid parameter: DeliveryPolicy: " + text);
        });
    }

    @Test
    void validPoliciesPass() throws Exception {
        subscription("{\"healthyRetryPolicy\":{\"numRetries\":10,\"numNoDelayRetries\":2,\"numMinDelayRetries\":2,"
                + "\"numMaxDelayRetries\":2,\"minDelayTarget\":1,\"maxDelayTarget\":60,\"backoffFunction\":\"geometric\"},"
                + "\"throttlePolicy\":{\"maxReceivesPerSecond\":5},\"requestPolicy\":{\"headerContentType\":\"application/json\"},"
                + "\"sicklyRetryPolicy\":null}");
        DeliveryPolicyRules.checkTopic(JSON.readTree("{\"http\":{\"defaultHealthyRetryPolicy\":{\"numRetries\":3},"
                + "\"disableSubscriptionOverrides\":true,\"defaultThrottlePolicy\":{\"maxReceivesPerSecond\":1},"
                + "\"defaultRequestPolicy\":{\"headerContentType\":\"text/plain; charset=UTF-8\"}}}"));
    }

    @Test
    void outOfRangeValuesAreRefused() {
        refusedSubscription("{\"healthyRetryPolicy\":{\"numRetries\":101}}", "healthyRetryPolicy.numRetries must be between 0 and 100");
        refusedSubscription("{\"healthyRetryPolicy\":{\"numRetries\":2,\"numNoDelayRetries\":3}}",
                "healthyRetryPolicy: numNoDelayRetries + numMinDelayRetries + numMaxDelayRetries must not exceed numRetries");
        refusedSubscription("{\"healthyRetryPolicy\":{\"minDelayTarget\":30,\"maxDelayTarget\":20}}",
                "healthyRetryPolicy.minDelayTarget must be between 1 and maxDelayTarget");
        refusedSubscription("{\"healthyRetryPolicy\":{\"maxDelayTarget\":3601}}",
                "healthyRetryPolicy.maxDelayTarget must be between 1 and 3600");
        refusedSubscription("{\"healthyRetryPolicy\":{\"backoffFunction\":\"cubic\"}}",
                "healthyRetryPolicy.backoffFunction must be one of linear, arithmetic, geometric, exponential");
        refusedSubscription("{\"throttlePolicy\":{\"maxReceivesPerSecond\":0}}", "throttlePolicy.maxReceivesPerSecond must be at least 1");
        refusedSubscription("{\"requestPolicy\":{\"headerContentType\":\"image/png\"}}",
                "requestPolicy.headerContentType must be text/plain, application/json or application/xml: image/png");
        refusedSubscription("{\"healthyRetryPolicy\":{\"numRetries\":\"3\"}}", "healthyRetryPolicy.numRetries must be an integer");
        refusedSubscription("{\"retry\":{}}", "unknown key retry");
    }

    @Test
    void theEffectivePolicyMergesTheTopicsDefaultsAndHasAwsShape() {
        assertThat(HttpRetryPolicy.DEFAULT.effectiveJson()).isEqualTo(SnsDefaults.EFFECTIVE_HTTP_SUBSCRIPTION_DELIVERY_POLICY);
        String topic = "{\"http\":{\"defaultThrottlePolicy\":{\"maxReceivesPerSecond\":7},"
                + "\"defaultRequestPolicy\":{\"headerContentType\":\"application/json\"}}}";
        HttpRetryPolicy p = HttpRetryPolicy.of(topic, "{\"healthyRetryPolicy\":{\"numRetries\":5,\"minDelayTarget\":2,\"maxDelayTarget\":8}}");
        assertThat(p.effectiveJson()).isEqualTo("{\"healthyRetryPolicy\":{\"minDelayTarget\":2,\"maxDelayTarget\":8,"
                + "\"numRetries\":5,\"numMaxDelayRetries\":0,\"numNoDelayRetries\":0,\"numMinDelayRetries\":0,"
                + "\"backoffFunction\":\"linear\"},\"sicklyRetryPolicy\":null,\"throttlePolicy\":{\"maxReceivesPerSecond\":7},"
                + "\"requestPolicy\":{\"headerContentType\":\"application/json\"},\"guaranteed\":false}");
    }

    @Test
    void requestsAreCheckedBeforeTheCommandAndApplyStillTakesWhatOlderLogsHold() throws Exception {
        String bad = "{\"healthyRetryPolicy\":{\"minDelayTarget\":0}}";
        assertThatThrownBy(() -> DeliveryPolicyRules.checkRequest("Subscribe", SnsParams.of(java.util.Map.of(
                "Attributes.entry.1.key", "DeliveryPolicy", "Attributes.entry.1.value", bad))))
                .hasMessage("Invalid parameter: Attributes Reason: DeliveryPolicy: healthyRetryPolicy.minDelayTarget must be "
                        + "between 1 and maxDelayTarget");
        assertThatThrownBy(() -> DeliveryPolicyRules.checkRequest("SetSubscriptionAttributes", SnsParams.of(java.util.Map.of(
                "AttributeName", "DeliveryPolicy", "AttributeValue", bad))))
                .hasMessage("Invalid parameter: DeliveryPolicy: healthyRetryPolicy.minDelayTarget must be between 1 and maxDelayTarget");
        DeliveryPolicyRules.checkRequest("SetSubscriptionAttributes", SnsParams.of(java.util.Map.of(
                "AttributeName", "DeliveryPolicy", "AttributeValue", "not json"))); // apply words that refusal
        // a policy logged before the checks existed still applies at replay
        SubscriptionAttributeRules.check("DeliveryPolicy", bad, null, "http");
    }
}
