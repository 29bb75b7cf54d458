package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The retry schedule of an HTTP/S subscription, from SNS's delivery policy: the subscription's
 * {@code healthyRetryPolicy} unless the topic's {@code http.disableSubscriptionOverrides}, else the topic's
 * {@code http.defaultHealthyRetryPolicy}, else SNS's default (3 retries, 20 s apart). Retry {@code k} (1-based)
 * waits: 0 in the no-delay phase, {@code minDelayTarget} in the pre-backoff phase, then the backoff phase from min to
 * max by {@code backoffFunction}, then {@code maxDelayTarget}. The whole schedule is capped at 100 retries and 3,600 s,
 * as at SNS. {@link #AWS_MANAGED} is SNS's fixed policy for queue (and Lambda) endpoints, without those caps.
 * Jitter is not applied (deterministic for tests; SNS jitters).
 *
 * The policy also carries the {@code throttlePolicy.maxReceivesPerSecond} (subscription's, else the topic's
 * {@code http.defaultThrottlePolicy}) that {@link HttpOutbox} paces the subscription's deliveries by.
 *
 * @param awsManaged the schedule of an AWS-managed endpoint: not capped (false in outbox lines written before it)
 * @param maxReceivesPerSecond deliveries per second to the subscription at most; 0 for no limit (outbox lines
 *                             written before it read 0)
 */
record HttpRetryPolicy(int numRetries, int numNoDelayRetries, int numMinDelayRetries, int numMaxDelayRetries,
                       int minDelaySeconds, int maxDelaySeconds, String backoffFunction, String contentType,
                       boolean awsManaged, int maxReceivesPerSecond) {

    static final int MAX_TOTAL_SECONDS = 3_600;
    static final HttpRetryPolicy DEFAULT = new HttpRetryPolicy(3, 0, 0, 0, 20, 20, "linear", "text/plain; charset=UTF-8", false, 0);
    /**
     * SNS's policy for SQS and Lambda endpoints: 3 retries at once, 2 one second apart, 10 backing off exponentially
     * from 1 to 20 s, then 100,000 at 20 s: 100,015 retries over about 23 days.
     */
    static final HttpRetryPolicy AWS_MANAGED = new HttpRetryPolicy(100_015, 3, 2, 100_000, 1, 20, "exponential", "", true, 0);
    /**
     * A lambda subscription: Lambda's asynchronous invocation retries a failed function twice, about a minute and
     * then two minutes later, before the event goes to the failure destination (here the subscription's DLQ).
     */
    static final HttpRetryPolicy LAMBDA_ASYNC = new HttpRetryPolicy(2, 0, 0, 0, 60, 120, "linear", "application/json", true, 0);
    private static final ObjectMapper JSON = new ObjectMapper();

    static HttpRetryPolicy of(String topicPolicy, String subscriptionPolicy) {
        JsonNode topic = read(topicPolicy).path("http");
        JsonNode sub = read(subscriptionPolicy);
        boolean overridesAllowed = !topic.path("disableSubscriptionOverrides").asBoolean(false);
        JsonNode retry = overridesAllowed && sub.has("healthyRetryPolicy") ? sub.get("healthyRetryPolicy")
                : topic.path("defaultHealthyRetryPolicy");
        JsonNode request = overridesAllowed && sub.path("requestPolicy").has("headerContentType")
                ? sub.get("requestPolicy") : topic.path("defaultRequestPolicy");
        JsonNode throttle = overridesAllowed && sub.path("throttlePolicy").has("maxReceivesPerSecond")
                ? sub.get("throttlePolicy") : topic.path("defaultThrottlePolicy");
        HttpRetryPolicy d = DEFAULT;
        return new HttpRetryPolicy(
                retry.path("numRetries").asInt(d.numRetries),
                retry.path("numNoDelayRetries").asInt(d.numNoDelayRetries),
                retry.path("numMinDelayRetries").asInt(d.numMinDelayRetries),
                retry.path("numMaxDelayRetries").asInt(d.numMaxDelayRetries),
                Math.max(0, retry.path("minDelayTarget").asInt(d.minDelaySeconds)),
                Math.max(0, retry.path("maxDelayTarget").asInt(d.maxDelaySeconds)),
                retry.path("backoffFunction").asText(d.backoffFunction),
                request.path("headerContentType").asText(d.contentType), false,
                Math.max(0, throttle.path("maxReceivesPerSecond").asInt(0)));
    }

    /** A subscription's {@code EffectiveDeliveryPolicy}: this policy in SNS's subscription shape and key order. */
    String effectiveJson() {
        com.fasterxml.jackson.databind.node.ObjectNode n = JSON.createObjectNode();
        n.putObject("healthyRetryPolicy").put("minDelayTarget", minDelaySeconds).put("maxDelayTarget", maxDelaySeconds)
                .put("numRetries", numRetries).put("numMaxDelayRetries", numMaxDelayRetries)
                .put("numNoDelayRetries", numNoDelayRetries).put("numMinDelayRetries", numMinDelayRetries)
                .put("backoffFunction", backoffFunction);
        n.putNull("sicklyRetryPolicy");
        if (maxReceivesPerSecond > 0) {
            n.putObject("throttlePolicy").put("maxReceivesPerSecond", maxReceivesPerSecond);
        } else {
            n.putNull("throttlePolicy");
        }
        n.putObject("requestPolicy").put("headerContentType", contentType);
        n.put("guaranteed", false);
        return n.toString();
    }

    /** Milliseconds between two deliveries to the subscription, or 0 when it is not throttled. */
    double pacingMillis() {
        return maxReceivesPerSecond <= 0 ? 0 : 1000.0 / maxReceivesPerSecond;
    }

    private static JsonNode read(String json) {
        if (json == null || json.isEmpty()) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode n = JSON.readTree(json);
            return n == null || !n.isObject() ? JSON.createObjectNode() : n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return JSON.createObjectNode(); // validated when set; a stored policy always parses
        }
    }

    /**
     * Seconds to wait before retry {@code k} (1-based), or -1 when there is no such retry (the policy is used up,
     * or the 3,600 s cap would be passed, {@code waitedSeconds} being the total waited so far).
     */
    long delayBeforeRetry(int k, long waitedSeconds) {
        if (k > (awsManaged ? numRetries : Math.min(numRetries, 100))) {
            return -1;
        }
        long delay;
        int backoff = Math.max(0, numRetries - numNoDelayRetries - numMinDelayRetries - numMaxDelayRetries);
        if (k <= numNoDelayRetries) {
            delay = 0;
        } else if (k <= numNoDelayRetries + numMinDelayRetries) {
            delay = minDelaySeconds;
        } else if (k <= numNoDelayRetries + numMinDelayRetries + backoff) {
            int j = k - numNoDelayRetries - numMinDelayRetries; // 1..backoff
            double f = backoff == 1 ? 1.0 : (j - 1) / (double) (backoff - 1);
            double span = maxDelaySeconds - minDelaySeconds;
            delay = Math.round(switch (backoffFunction) {
                case "arithmetic" -> minDelaySeconds + span * f * f;
                case "geometric", "exponential" -> minDelaySeconds <= 0 ? span * f
                        : minDelaySeconds * Math.pow(maxDelaySeconds / (double) minDelaySeconds, f);
                default -> minDelaySeconds + span * f;
            });
        } else {
            delay = maxDelaySeconds;
        }
        return !awsManaged && waitedSeconds + delay > MAX_TOTAL_SECONDS ? -1 : delay;
    }
}
