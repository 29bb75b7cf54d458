package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Validation of an HTTP/S {@code DeliveryPolicy}, topic ({@code {"http":{"defaultHealthyRetryPolicy",
 * "sicklyRetryPolicy", "disableSubscriptionOverrides", "defaultThrottlePolicy", "defaultRequestPolicy"}}}) or
 * subscription ({@code healthyRetryPolicy}, {@code sicklyRetryPolicy}, {@code throttlePolicy}, {@code requestPolicy}),
 * by the constraints SNS documents for them (sns-message-delivery-retries): numRetries 0-100, minDelayTarget 1 to
 * maxDelayTarget, maxDelayTarget up to 3,600, the no-delay, min-delay and max-delay phases together at most
 * numRetries, backoffFunction one of linear, arithmetic, geometric, exponential, maxReceivesPerSecond at least 1,
 * headerContentType one of the types SNS sends. Refusals are {@code InvalidParameter} prefixed
 * {@code DeliveryPolicy: }; the texts after it are Hikyaku's (the recordings hold none).
 * <p>
 * Checked when the request arrives ({@link #checkRequest}, before SnsApi makes the command), not in apply: the
 * command log may hold policies accepted before these checks existed, and replaying them must still apply. Apply
 * keeps its own checks (a JSON object; HTTP/S subscriptions only), which come first for a value that is not an object.
 */
final class DeliveryPolicyRules {

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final Set<String> BACKOFF = Set.of("linear", "arithmetic", "geometric", "exponential");
    private static final Set<String> CONTENT_TYPES = Set.of("text/plain", "application/json", "application/xml");
    private static final Set<String> RETRY_KEYS = Set.of("numRetries", "numNoDelayRetries", "numMinDelayRetries",
            "numMaxDelayRetries", "minDelayTarget", "maxDelayTarget", "backoffFunction");

    private DeliveryPolicyRules() {
    }

    /** The DeliveryPolicy values a request sets: CreateTopic's and Subscribe's attributes, Set*Attributes. */
    static void checkRequest(String action, SnsParams p) throws SnsException {
        switch (action) {
            case "CreateTopic" -> topicValue(p.map("Attributes").get("DeliveryPolicy"), "");
            case "SetTopicAttributes" -> {
                if ("DeliveryPolicy".equals(p.get("AttributeName"))) {
                    topicValue(p.get("AttributeValue"), "");
                }
            }
            case "Subscribe" -> subscriptionValue(p.map("Attributes").get("DeliveryPolicy"), "Attributes Reason: ");
            case "SetSubscriptionAttributes" -> {
                if ("DeliveryPolicy".equals(p.get("AttributeName"))) {
                    subscriptionValue(p.get("AttributeValue"), "");
                }
            }
            default -> { }
        }
    }

    private static void topicValue(String v, String prefix) throws SnsException {
        JsonNode n = objectOrNull(v);
        if (n != null) {
            prefixed(() -> checkTopic(n), prefix);
        }
    }

    private static void subscriptionValue(String v, String prefix) throws SnsException {
        JsonNode n = objectOrNull(v);
        if (n != null) {
            prefixed(() -> checkSubscription(n), prefix);
        }
    }

    private interface Check {
        void run() throws SnsException;
    }

    private static void prefixed(Check check, String prefix) throws SnsException {
        try {
            check.run();
        } catch (SnsException e) {
            if (prefix.isEmpty()) {
                throw e;
            }
            throw SnsException.invalidParameter(prefix + e.getMessage().substring("Invalid parameter: ".length()));
        }
    }

    /** The value as a JSON object, or null when empty or not one (apply refuses that with its own text). */
    private static JsonNode objectOrNull(String v) {
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(v);
            return n != null && n.isObject() ? n : null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    static void checkTopic(JsonNode policy) throws SnsException {
        for (Iterator<Map.Entry<String, JsonNode>> it = policy.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> protocol = it.next();
            if (!protocol.getKey().equals("http") && !protocol.getKey().equals("https")) {
                continue; // other protocols' sections are SNS's own (sqs, lambda take no custom policy): kept as given
            }
            JsonNode http = object(protocol.getValue(), protocol.getKey());
            for (Iterator<Map.Entry<String, JsonNode>> f = http.fields(); f.hasNext(); ) {
                Map.Entry<String, JsonNode> e = f.next();
                String path = protocol.getKey() + "." + e.getKey();
                switch (e.getKey()) {
                    case "defaultHealthyRetryPolicy", "sicklyRetryPolicy" -> retry(e.getValue(), path);
                    case "defaultThrottlePolicy" -> throttle(e.getValue(), path);
                    case "defaultRequestPolicy" -> request(e.getValue(), path);
                    case "disableSubscriptionOverrides" -> {
                        if (!e.getValue().isBoolean()) {
                            throw refused(path + " must be true or false");
                        }
                    }
                    default -> throw refused("unknown key " + path);
                }
            }
        }
    }

    static void checkSubscription(JsonNode policy) throws SnsException {
        for (Iterator<Map.Entry<String, JsonNode>> f = policy.fields(); f.hasNext(); ) {
            Map.Entry<String, JsonNode> e = f.next();
            switch (e.getKey()) {
                case "healthyRetryPolicy", "sicklyRetryPolicy" -> retry(e.getValue(), e.getKey());
                case "throttlePolicy" -> throttle(e.getValue(), e.getKey());
                case "requestPolicy" -> request(e.getValue(), e.getKey());
                case "guaranteed" -> { }
                default -> throw refused("unknown key " + e.getKey());
            }
        }
    }

    private static void retry(JsonNode node, String path) throws SnsException {
        if (node.isNull()) {
            return;
        }
        JsonNode r = object(node, path);
        for (Iterator<String> keys = r.fieldNames(); keys.hasNext(); ) {
            String k = keys.next();
            if (!RETRY_KEYS.contains(k)) {
                throw refused("unknown key " + path + "." + k);
            }
        }
        HttpRetryPolicy d = HttpRetryPolicy.DEFAULT;
        int retries = integer(r, "numRetries", path, d.numRetries());
        int noDelay = integer(r, "numNoDelayRetries", path, 0);
        int minDelayRetries = integer(r, "numMinDelayRetries", path, 0);
        int maxDelayRetries = integer(r, "numMaxDelayRetries", path, 0);
        int min = integer(r, "minDelayTarget", path, d.minDelaySeconds());
        int max = integer(r, "maxDelayTarget", path, d.maxDelaySeconds());
        if (retries < 0 || retries > 100) {
            throw refused(path + ".numRetries must be between 0 and 100");
        }
        if (noDelay < 0 || minDelayRetries < 0 || maxDelayRetries < 0) {
            throw refused(path + ": the numbers of retries must not be negative");
        }
        if (noDelay + minDelayRetries + maxDelayRetries > retries) {
            throw refused(path + ": numNoDelayRetries + numMinDelayRetries + numMaxDelayRetries must not exceed numRetries");
        }
        if (max < 1 || max > HttpRetryPolicy.MAX_TOTAL_SECONDS) {
            throw refused(path + ".maxDelayTarget must be between 1 and " + HttpRetryPolicy.MAX_TOTAL_SECONDS);
        }
        if (min < 1 || min > max) {
            throw refused(path + ".minDelayTarget must be between 1 and maxDelayTarget");
        }
        if (r.has("backoffFunction") && !BACKOFF.contains(r.get("backoffFunction").asText())) {
            throw refused(path + ".backoffFunction must be one of linear, arithmetic, geometric, exponential");
        }
    }

    private static void throttle(JsonNode node, String path) throws SnsException {
        if (node.isNull()) {
            return;
        }
        JsonNode t = object(node, path);
        if (t.has("maxReceivesPerSecond") && integer(t, "maxReceivesPerSecond", path, 1) < 1) {
            throw refused(path + ".maxReceivesPerSecond must be at least 1");
        }
    }

    private static void request(JsonNode node, String path) throws SnsException {
        if (node.isNull()) {
            return;
        }
        JsonNode r = object(node, path);
        if (r.has("headerContentType")) {
            String type = r.get("headerContentType").asText();
            String bare = type.split(";", 2)[0].strip();
            if (!r.get("headerContentType").isTextual() || !CONTENT_TYPES.contains(bare)) {
                throw refused(path + ".headerContentType must be text/plain, application/json or application/xml: " + type);
            }
        }
    }

    private static JsonNode object(JsonNode n, String path) throws SnsException {
        if (!n.isObject()) {
            throw refused(path + " must be an object");
        }
        return n;
    }

    private static int integer(JsonNode r, String key, String path, int absent) throws SnsException {
        JsonNode v = r.get(key);
        if (v == null) {
            return absent;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw refused(path + "." + key + " must be an integer");
        }
        return v.asInt();
    }

    private static SnsException refused(String why) {
        return SnsException.invalidParameter("DeliveryPolicy: " + why);
    }
}
