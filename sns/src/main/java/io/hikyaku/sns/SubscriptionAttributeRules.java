package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.filter.FilterPolicyException;
import io.hikyaku.filter.FilterPolicyScope;
import io.hikyaku.filter.SnsFilterPolicy;
import java.util.Set;

/**
 * Which subscription attributes may be set and the values each accepts. Reasons are SNS's texts after
 * "Invalid parameter: " (SetSubscriptionAttributes); Subscribe puts "Attributes Reason: " before them.
 */
final class SubscriptionAttributeRules {

    static final Set<String> SETTABLE = Set.of("RawMessageDelivery", "FilterPolicy", "FilterPolicyScope",
            "RedrivePolicy", "DeliveryPolicy");

    private SubscriptionAttributeRules() {
    }

    static void check(String name, String value, Topic topic, String protocol) throws SnsException {
        if (!SETTABLE.contains(name)) {
            throw SnsException.invalidParameter("AttributeName");
        }
        String v = value == null ? "" : value;
        switch (name) {
            case "RawMessageDelivery" -> {
                if (!(v.equals("true") || v.equals("false"))) {
                    throw SnsException.invalidParameter("Attributes Reason: RawMessageDelivery: Invalid value ["
                            + v + "]. Must be true or false.");
                }
            }
            case "FilterPolicyScope" -> {
                try {
                    FilterPolicyScope.parse(v);
                } catch (FilterPolicyException e) {
                    throw SnsException.invalidParameter(e.getMessage());
                }
            }
            case "FilterPolicy" -> {
                if (!v.isEmpty()) {
                    compile(v, FilterPolicyScope.MessageBody); // the looser scope; the real one is checked on use
                }
            }
            case "RedrivePolicy" -> {
                if (!v.isEmpty()) {
                    checkRedrivePolicy(v, topic);
                }
            }
            default -> {
                if (!protocol.startsWith("http")) {
                    throw SnsException.invalidParameter("DeliveryPolicy: only HTTP/S subscriptions take a delivery policy");
                }
                if (!v.isEmpty()) {
                    // ranges: DeliveryPolicyRules, at the request
                    TopicAttributeRules.requireJsonObject(v, "DeliveryPolicy: failed to parse JSON.");
                }
            }
        }
    }

    static SnsFilterPolicy compile(String policy, FilterPolicyScope scope) throws SnsException {
        try {
            return SnsFilterPolicy.compile(policy, scope);
        } catch (FilterPolicyException e) {
            throw SnsException.invalidParameter(e.getMessage());
        }
    }

    private static void checkRedrivePolicy(String v, Topic topic) throws SnsException {
        JsonNode policy;
        try {
            policy = new com.fasterxml.jackson.databind.ObjectMapper().readTree(v);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw SnsException.invalidParameter("RedrivePolicy: failed to parse JSON. " + e.getOriginalMessage());
        }
        JsonNode target = policy == null ? null : policy.get("deadLetterTargetArn");
        if (target == null || !target.isTextual() || !SnsArns.isQueueArn(target.asText())) {
            throw SnsException.invalidParameter("RedrivePolicy: deadLetterTargetArn is an invalid arn");
        }
        if (topic.fifo && !target.asText().endsWith(".fifo")) {
            throw SnsException.invalidParameter(
                    "RedrivePolicy: must use a FIFO queue as DLQ for a FIFO Subscription to a FIFO Topic.");
        }
    }
}
