package io.hikyaku.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.RedriveAllowPolicy;
import io.hikyaku.engine.RedrivePolicy;
import io.hikyaku.protocol.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the Attributes map of CreateQueue / SetQueueAttributes into an engine update: the JSON
 * valued attributes are parsed here (the engine checks names, ranges and meaning).
 */
final class QueueAttributesReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private QueueAttributesReader() {}

    static AttributeUpdate read(Map<String, String> attributes) {
        RedrivePolicy redrive = null;
        RedriveAllowPolicy allow = null;
        String policy = attributes.get("Policy");
        if (policy != null && !policy.isEmpty()) {
            QueuePolicyRules.check(policy);
        }
        String redriveText = attributes.get("RedrivePolicy");
        if (redriveText != null && !redriveText.isEmpty()) {
            redrive = redrivePolicy(redriveText);
        }
        String allowText = attributes.get("RedriveAllowPolicy");
        if (allowText != null && !allowText.isEmpty()) {
            allow = redriveAllowPolicy(allowText);
        }
        return new AttributeUpdate(attributes, redrive, allow);
    }

    /** {"deadLetterTargetArn": arn, "maxReceiveCount": n or "n"}. */
    static RedrivePolicy redrivePolicy(String text) {
        JsonNode node = parse(text);
        if (node == null || !node.isObject()) {
            throw invalid("RedrivePolicy", text, "Redrive policy is not a valid JSON map.");
        }
        JsonNode arn = node.get("deadLetterTargetArn");
        if (arn != null && !arn.isTextual()) {
            throw invalid("RedrivePolicy", text, "Invalid value for deadLetterTargetArn.");
        }
        Integer maxReceiveCount = null;
        JsonNode count = node.get("maxReceiveCount");
        if (count != null && !count.isNull()) {
            try {
                maxReceiveCount = count.isIntegralNumber() && count.canConvertToInt() ? count.asInt()
                        : Integer.parseInt(count.asText().trim());
            } catch (NumberFormatException e) {
                throw invalid("RedrivePolicy", text, "Invalid value for maxReceiveCount: " + count.asText()
                        + ", valid values are from 1 to 1000 both inclusive.");
            }
        }
        return new RedrivePolicy(arn == null ? null : arn.asText(), maxReceiveCount);
    }

    /** {"redrivePermission": allowAll|denyAll|byQueue, "sourceQueueArns": [arn...]}. */
    static RedriveAllowPolicy redriveAllowPolicy(String text) {
        JsonNode node = parse(text);
        if (node == null || !node.isObject()) {
            throw invalid("RedriveAllowPolicy", text, "Redrive allow policy is not a valid JSON map.");
        }
        JsonNode permission = node.get("redrivePermission");
        if (permission == null || !permission.isTextual()) {
            throw invalid("RedriveAllowPolicy", text,
                    "Redrive allow policy does not contain mandatory attribute: redrivePermission.");
        }
        List<String> arns = null;
        JsonNode sources = node.get("sourceQueueArns");
        if (sources != null && !sources.isNull()) {
            if (!sources.isArray()) {
                throw invalid("RedriveAllowPolicy", text, "sourceQueueArns must be a list of queue ARNs.");
            }
            arns = new ArrayList<>();
            for (JsonNode arn : sources) {
                if (!arn.isTextual()) {
                    throw invalid("RedriveAllowPolicy", text, "sourceQueueArns must be a list of queue ARNs.");
                }
                arns.add(arn.asText());
            }
        }
        return new RedriveAllowPolicy(permission.asText(), arns);
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Content errors in the policies are InvalidParameterValue "Value {policy} for parameter X is
     * invalid. Reason: ...", the form AWS uses for every RedrivePolicy content error it reports.
     */
    private static ApiException invalid(String attribute, String text, String reason) {
        return Errors.invalidValue(attribute, text, reason);
    }
}
