package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.filter.FilterPolicyScope;
import io.hikyaku.filter.SnsFilterPolicy;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Why a filter policy dropped a message, as AWS/SNS splits NumberOfNotificationsFilteredOut: the message had no
 * attributes (attribute scope), an attribute was malformed (a String.Array value that is not a JSON array, a Number
 * value that is not a number), or the body is not a JSON object (body scope). A message that was merely not matched
 * has no reason beyond FilteredOut itself.
 */
enum FilteredOutReason {
    NO_MESSAGE_ATTRIBUTES(SnsTopicMetrics.Count.FILTERED_OUT_NO_MESSAGE_ATTRIBUTES),
    INVALID_ATTRIBUTES(SnsTopicMetrics.Count.FILTERED_OUT_INVALID_ATTRIBUTES),
    INVALID_MESSAGE_BODY(SnsTopicMetrics.Count.FILTERED_OUT_INVALID_MESSAGE_BODY),
    NOT_MATCHED(null);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The per-reason metric, or null for a plain mismatch. */
    final SnsTopicMetrics.Count metric;

    FilteredOutReason(SnsTopicMetrics.Count metric) {
        this.metric = metric;
    }

    /** Why {@code policy} dropped this message (call only once it did). */
    static FilteredOutReason of(SnsFilterPolicy policy, Map<String, SnsFilterPolicy.Attribute> attributes, String body) {
        if (policy.scope() == FilterPolicyScope.MessageBody) {
            return jsonObject(body) ? NOT_MATCHED : INVALID_MESSAGE_BODY;
        }
        if (attributes.isEmpty()) {
            return NO_MESSAGE_ATTRIBUTES;
        }
        for (SnsFilterPolicy.Attribute a : attributes.values()) {
            if (malformed(a)) {
                return INVALID_ATTRIBUTES;
            }
        }
        return NOT_MATCHED;
    }

    private static boolean jsonObject(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            return n != null && n.isObject();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return false;
        }
    }

    private static boolean malformed(SnsFilterPolicy.Attribute a) {
        String type = a.dataType() == null ? "" : a.dataType();
        if (type.startsWith("String.Array")) {
            try {
                JsonNode n = JSON.readTree(a.value());
                return n == null || !n.isArray();
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                return true;
            }
        }
        if (type.startsWith("Number")) {
            try {
                new BigDecimal(a.value().strip());
                return false;
            } catch (NumberFormatException e) {
                return true;
            }
        }
        return false;
    }
}
