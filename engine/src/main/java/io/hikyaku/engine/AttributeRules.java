package io.hikyaku.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Validates CreateQueue / SetQueueAttributes attribute maps and applies them to settings. Checks
 * names, value ranges, FIFO-only attributes and SSE exclusivity; the redrive policies' references
 * to other queues are checked by the engine (it knows the queues).
 */
final class AttributeRules {
    private AttributeRules() {}

    static final String REDRIVE_POLICY = "RedrivePolicy";
    static final String REDRIVE_ALLOW_POLICY = "RedriveAllowPolicy";
    static final String POLICY = "Policy";
    static final String KMS_KEY = "KmsMasterKeyId";
    static final String KMS_REUSE = "KmsDataKeyReusePeriodSeconds";
    static final String SSE = "SqsManagedSseEnabled";

    private record Range(int min, int max) {}

    private static final Map<String, Range> RANGES = Map.of(
            "DelaySeconds", new Range(0, 900),
            "MaximumMessageSize", new Range(1024, 1048576),
            "MessageRetentionPeriod", new Range(60, 1209600),
            "ReceiveMessageWaitTimeSeconds", new Range(0, 20),
            "VisibilityTimeout", new Range(0, 43200),
            KMS_REUSE, new Range(60, 86400));

    private static final Set<String> BOOLEANS = Set.of(SSE, "ContentBasedDeduplication", "FifoQueue");
    private static final Set<String> TEXT = Set.of(POLICY, REDRIVE_POLICY, REDRIVE_ALLOW_POLICY, KMS_KEY);

    /** Every name GetQueueAttributes knows (besides All). */
    static final Set<String> READABLE = Set.of("All", "ApproximateNumberOfMessages",
            "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp",
            "LastModifiedTimestamp", "QueueArn", "DelaySeconds", "MaximumMessageSize", "MessageRetentionPeriod",
            POLICY, "ReceiveMessageWaitTimeSeconds", "VisibilityTimeout", REDRIVE_POLICY, REDRIVE_ALLOW_POLICY,
            KMS_KEY, KMS_REUSE, SSE, "FifoQueue", "ContentBasedDeduplication", "DeduplicationScope",
            "FifoThroughputLimit");

    /**
     * Checks names and values of a request for a queue of the given type and returns them in
     * canonical form (request order). {@code creating} distinguishes CreateQueue from Set.
     */
    static Map<String, String> normalize(Map<String, String> raw, boolean fifo, boolean creating) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : raw.entrySet()) {
            String name = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue();
            if (!fifo) {
                switch (name) {
                    case "FifoQueue", "ContentBasedDeduplication" -> throw Texts.unknownAttribute(name);
                    case "DeduplicationScope", "FifoThroughputLimit" -> throw new EngineException(
                            ErrorTypes.INVALID_ATTRIBUTE_NAME,
                            "You can specify the " + name + " only when FifoQueue is set to true.");
                    default -> { }
                }
            }
            out.put(name, canonical(name, value, fifo, creating));
        }
        String kms = out.get(KMS_KEY);
        if (kms != null && !kms.isEmpty() && "true".equals(out.get(SSE))) {
            throw new EngineException(ErrorTypes.INVALID_ATTRIBUTE_NAME,
                    "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.");
        }
        return out;
    }

    private static String canonical(String name, String value, boolean fifo, boolean creating) {
        Range range = RANGES.get(name);
        if (range != null) {
            try {
                int v = Integer.parseInt(value.trim());
                if (v < range.min() || v > range.max()) {
                    throw Texts.invalidAttributeValue(name);
                }
                return Integer.toString(v);
            } catch (NumberFormatException ex) {
                throw Texts.invalidAttributeValue(name);
            }
        }
        if (BOOLEANS.contains(name)) {
            String v = value.trim().toLowerCase();
            if (!v.equals("true") && !v.equals("false")) {
                throw Texts.invalidAttributeValue(name);
            }
            if (name.equals("FifoQueue") && !creating && v.equals("false")) {
                throw new EngineException(ErrorTypes.INVALID_ATTRIBUTE_VALUE,
                        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.");
            }
            return v;
        }
        if (TEXT.contains(name)) {
            return value;
        }
        switch (name) {
            case "DeduplicationScope":
                if (!value.equals("messageGroup") && !value.equals("queue")) {
                    throw Texts.invalidAttributeValue(name);
                }
                return value;
            case "FifoThroughputLimit":
                if (!value.equals("perQueue") && !value.equals("perMessageGroupId")) {
                    throw Texts.invalidAttributeValue(name);
                }
                return value;
            default:
                throw Texts.unknownAttribute(name);
        }
    }

    /** {@code base} with the normalized request applied (removals, SSE interplay). */
    static Map<String, String> apply(Map<String, String> base, Map<String, String> request) {
        Map<String, String> v = new TreeMap<>(base);
        String kms = request.get(KMS_KEY);
        if (kms != null) {
            if (kms.isEmpty()) {
                v.remove(KMS_KEY);
                v.remove(KMS_REUSE);
            } else {
                v.put(KMS_KEY, kms);
                v.put(SSE, "false");
            }
        }
        for (Map.Entry<String, String> e : request.entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            switch (name) {
                case KMS_KEY -> { }
                case KMS_REUSE -> {
                    if (v.containsKey(KMS_KEY)) {
                        v.put(KMS_REUSE, value);
                    }
                }
                case SSE -> {
                    v.put(SSE, value);
                    if (value.equals("true")) {
                        v.remove(KMS_KEY);
                        v.remove(KMS_REUSE);
                    }
                }
                case POLICY, REDRIVE_POLICY, REDRIVE_ALLOW_POLICY -> {
                    if (value.isEmpty()) {
                        v.remove(name);
                    } else {
                        v.put(name, value);
                    }
                }
                default -> v.put(name, value);
            }
        }
        if (v.containsKey(KMS_KEY) && !v.containsKey(KMS_REUSE)) {
            v.put(KMS_REUSE, "300");
        }
        if ("perMessageGroupId".equals(v.get("FifoThroughputLimit")) && !"messageGroup".equals(v.get("DeduplicationScope"))) {
            throw new EngineException(ErrorTypes.INVALID_ATTRIBUTE_VALUE,
                    "The perMessageGroupId value is allowed only when the value for DeduplicationScope is messageGroup");
        }
        return v;
    }

    /** Validates the RedriveAllowPolicy's own content (not other queues). */
    static void checkRedriveAllow(String json, RedriveAllowPolicy p) {
        if (p == null || p.redrivePermission() == null) {
            throw Texts.invalidValue(json, REDRIVE_ALLOW_POLICY, "Amazon SQS can't process the redrive allow policy.");
        }
        List<String> arns = p.sourceQueueArns() == null ? List.of() : p.sourceQueueArns();
        switch (p.redrivePermission()) {
            case "allowAll", "denyAll" -> {
                if (!arns.isEmpty()) {
                    throw Texts.invalidValue(json, REDRIVE_ALLOW_POLICY,
                            "Only byQueue redrivePermission can be used with sourceQueueArns.");
                }
            }
            case "byQueue" -> {
                if (arns.isEmpty() || arns.size() > 10) {
                    throw Texts.invalidValue(json, REDRIVE_ALLOW_POLICY,
                            "Amazon SQS can't process the redrive allow policy. The sourceQueueArns must contain 1 to 10 queue ARNs.");
                }
            }
            default -> throw Texts.invalidValue(json, REDRIVE_ALLOW_POLICY,
                    "Invalid value for redrivePermission: " + p.redrivePermission() + ".");
        }
    }
}
