package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;

/** Which topic attributes may be set, and the values each accepts (SNS's texts after "Invalid parameter: "). */
final class TopicAttributeRules {

    static final int DEFAULT_MAXIMUM_MESSAGE_SIZE = 262_144;
    static final int MIN_MAXIMUM_MESSAGE_SIZE = 1_024;
    static final int MAX_MAXIMUM_MESSAGE_SIZE = 1_048_576;
    static final int MAX_POLICY_BYTES = 30 * 1024;
    static final int MAX_DISPLAY_NAME = 100;

    /** Attributes SetTopicAttributes and CreateTopic accept. {@code FifoTopic} only at creation. */
    static final Set<String> SETTABLE = Set.of("DisplayName", "Policy", "DeliveryPolicy", "KmsMasterKeyId",
            "SignatureVersion", "TracingConfig", "ContentBasedDeduplication", "FifoThroughputScope",
            "MaximumMessageSize");

    private static final ObjectMapper JSON = new ObjectMapper();

    private TopicAttributeRules() {
    }

    /** Refuses a value SNS would refuse for {@code name} on a topic that is (or is not) FIFO. */
    static void check(String name, String value, boolean fifo) throws SnsException {
        if (!SETTABLE.contains(name)) {
            throw SnsException.invalidParameter("AttributeName");
        }
        String v = value == null ? "" : value;
        switch (name) {
            case "DisplayName" -> {
                if (v.length() > MAX_DISPLAY_NAME) {
                    throw SnsException.invalidParameter("DisplayName");
                }
            }
            case "Policy" -> {
                if (v.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_POLICY_BYTES) {
                    throw SnsException.invalidParameter("Policy Error: policy too long");
                }
                requireJsonObject(v, "Policy Error: null");
            }
            case "DeliveryPolicy" -> {
                if (!v.isEmpty()) {
                    requireJsonObject(v, "DeliveryPolicy: failed to parse JSON."); // ranges: DeliveryPolicyRules, at the request
                }
            }
            case "SignatureVersion" -> {
                if (!(v.equals("1") || v.equals("2"))) {
                    throw SnsException.invalidParameter("SignatureVersion");
                }
            }
            case "TracingConfig" -> {
                if (!(v.equals("PassThrough") || v.equals("Active"))) {
                    throw SnsException.invalidParameter("TracingConfig: Invalid value [" + v
                            + "]. Please use either PassThrough or Active");
                }
            }
            case "ContentBasedDeduplication" -> {
                if (!fifo) {
                    throw SnsException.invalidParameter(
                            "ContentBasedDeduplication: Content based deduplication can only be set for FIFO topics");
                }
                if (!(v.equals("true") || v.equals("false"))) {
                    throw SnsException.invalidParameter("ContentBasedDeduplication: Invalid value [" + v
                            + "]. Must be true or false.");
                }
            }
            case "FifoThroughputScope" -> {
                if (!fifo) {
                    throw SnsException.invalidParameter(
                            "FifoThroughputScope: Throughput scope can only be set for FIFO topics");
                }
                if (!(v.equals("Topic") || v.equals("MessageGroup"))) {
                    throw SnsException.invalidParameter("FifoThroughputScope: Invalid value [" + v
                            + "]. Please use either Topic or MessageGroup");
                }
            }
            case "MaximumMessageSize" -> {
                int size;
                try {
                    size = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    size = -1;
                }
                if (size < MIN_MAXIMUM_MESSAGE_SIZE || size > MAX_MAXIMUM_MESSAGE_SIZE) {
                    throw SnsException.invalidParameter("MaximumMessageSize: Invalid value [" + v
                            + "]. Must be an integer between 1024 and 1048576.");
                }
            }
            default -> {
                // KmsMasterKeyId: any key id, alias or ARN; checked against KMS once KMS is served
            }
        }
    }

    static JsonNode requireJsonObject(String text, String reason) throws SnsException {
        try {
            JsonNode node = JSON.readTree(text);
            if (node != null && node.isObject()) {
                return node;
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // falls through to the refusal
        }
        throw SnsException.invalidParameter(reason);
    }
}
