package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HTTP/S subscriptions: the allow-list check at Subscribe, the {@code SubscriptionConfirmation} and
 * {@code Notification} POSTs (through {@link HttpOutbox}, off the request path), and the subscription DLQ: a
 * delivery that failed for good goes, as the body that was POSTed, to the queue of the subscription's
 * {@code RedrivePolicy} (read when it fails, so a policy set after the publish still counts), else is dropped.
 */
final class HttpSubscribers implements HttpOutbox.DeadLetters, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final String USER_AGENT = "Amazon Simple Notification Service Agent";

    private final OutboundAllowList allow;
    private final SnsSigner signer;
    private final QueueCalls queues;
    private final QueueDeliveryPolicy queuePolicy;
    private final HttpOutbox outbox;
    private final SnsTopicMetrics metrics;
    private volatile SnsTopics topics;

    /**
     * @param poster sends a delivery: a POST to an HTTP/S endpoint, or a SendMessage the outbox retries to a queue
     * @param queuePolicy decides whether SNS may send to a subscription's DLQ, as for any target queue
     */
    HttpSubscribers(OutboundAllowList allow, SnsSigner signer, QueueCalls queues, QueueDeliveryPolicy queuePolicy,
                    HttpEndpointClient.Poster poster, OutboxLog log, SnsTopicMetrics metrics, int capacity, int workers) {
        this.allow = allow;
        this.signer = signer;
        this.queues = queues;
        this.queuePolicy = queuePolicy;
        this.metrics = metrics;
        this.outbox = new HttpOutbox(poster, this, log, metrics, capacity, workers);
    }

    void attach(SnsTopics topics) {
        this.topics = topics;
    }

    HttpOutbox outbox() {
        return outbox;
    }

    /** Subscribe: SNS's InvalidParameter when the endpoint is outside {@code --outbound-allow} (nothing is sent). */
    void checkEndpoint(String protocol, String endpoint) throws SnsException {
        if (!protocol.equals("http") && !protocol.equals("https")) {
            return;
        }
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException | NullPointerException e) {
            throw SnsException.invalidParameter("Endpoint must match the specified protocol");
        }
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase(protocol) || uri.getHost() == null) {
            throw SnsException.invalidParameter("Endpoint must match the specified protocol");
        }
        String refusal = allow.refusal(uri);
        if (refusal != null) {
            throw SnsException.invalidParameter("Endpoint Reason: " + refusal + " (--outbound-allow)");
        }
    }

    /** Queues the SubscriptionConfirmation of a pending subscription; the room was reserved by the caller. */
    void sendConfirmation(String subscriptionArn, String topicArn, String endpoint, String token, String baseUrl,
                          String messageId, long atMillis, String signatureVersion, HttpRetryPolicy policy)
            throws SnsException {
        String body = HttpMessages.confirmation(messageId, topicArn, token, baseUrl, atMillis, signer, signatureVersion);
        Map<String, String> headers = headers("SubscriptionConfirmation", messageId, topicArn, null, policy, false);
        outbox.submit(new HttpDelivery(subscriptionArn, topicArn, endpoint, "SubscriptionConfirmation", messageId,
                headers, body.getBytes(StandardCharsets.UTF_8), policy));
    }

    /**
     * Queues the SubscriptionConfirmation of a subscription of another account's queue: the same JSON as for HTTP,
     * put into the queue (a SendMessage the outbox sends and retries like a queue delivery), for the queue's owner to
     * confirm with its Token or SubscribeURL. With {@code --auth sigv4} the queue's policy must let
     * {@code sns.amazonaws.com} send for the topic, as for a notification; otherwise nothing is sent and the
     * subscription stays pending. The room was reserved by the caller (and is given back when nothing is sent).
     */
    void sendQueueConfirmation(String subscriptionArn, String topicArn, String queueArn, String token, String baseUrl,
                               String messageId, long atMillis, String signatureVersion) throws SnsException {
        try {
            if (queuePolicy.enforced() && !queuePolicy.allows(topicArn, queueArn, queues.policy(queueArn))) {
                outbox.release(1);
                return;
            }
        } catch (RuntimeException missingQueue) {
            outbox.release(1);
            return;
        }
        String body = HttpMessages.confirmation(messageId, topicArn, token, baseUrl, atMillis, signer, signatureVersion);
        ObjectNode input = JSON.createObjectNode().put("QueueUrl", QueueCalls.queueUrl(queueArn)).put("MessageBody", body);
        outbox.submit(new HttpDelivery(subscriptionArn, topicArn, queueArn, "SubscriptionConfirmation", messageId,
                Map.of(), input.toString().getBytes(StandardCharsets.UTF_8), HttpRetryPolicy.AWS_MANAGED));
    }

    /**
     * Queues the UnsubscribeConfirmation of a subscription just deleted (signed like a confirmation, with the token
     * whose SubscribeURL restores the subscription for 2 days); skipped when the outbox is full, since an unsubscribe never waits for room.
     */
    void sendUnsubscribeConfirmation(String subscriptionArn, SnsState.UnsubscribeNotice notice, String token,
                                     String baseUrl, String messageId, long atMillis) {
        try {
            outbox.reserve(1);
        } catch (SnsException full) {
            return;
        }
        String body = HttpMessages.unsubscribeConfirmation(messageId, subscriptionArn, notice.topicArn(), token, baseUrl,
                atMillis, signer, notice.signatureVersion());
        Map<String, String> headers = headers("UnsubscribeConfirmation", messageId, notice.topicArn(), subscriptionArn,
                notice.policy(), false);
        try {
            outbox.submit(new HttpDelivery(subscriptionArn, notice.topicArn(), notice.endpoint(), "UnsubscribeConfirmation",
                    messageId, headers, body.getBytes(StandardCharsets.UTF_8), notice.policy()));
        } catch (SnsException logFailed) {
            // the subscription is gone either way; only its farewell is lost
        }
    }

    /** Queues a notification; the room was reserved by the caller. */
    void sendNotification(PublishedMessage m, SnsPublisher.Target t, NotificationEnvelopes envelopes)
            throws SnsException {
        String body = t.raw() ? m.message() : envelopes.forSubscription(t.subscriptionArn());
        Map<String, String> headers = headers("Notification", m.messageId(), m.topicArn(), t.subscriptionArn(),
                t.policy(), t.raw());
        outbox.submit(new HttpDelivery(t.subscriptionArn(), m.topicArn(), t.endpoint(), "Notification", m.messageId(),
                headers, body.getBytes(StandardCharsets.UTF_8), t.policy()));
    }

    /** Queues a lambda subscription's invocation with Lambda's SNS event; the room was reserved by the caller. */
    void sendLambdaEvent(PublishedMessage m, SnsPublisher.Target t, NotificationEnvelopes envelopes) throws SnsException {
        byte[] event = envelopes.lambdaEvent(t.subscriptionArn()).getBytes(StandardCharsets.UTF_8);
        outbox.submit(new HttpDelivery(t.subscriptionArn(), m.topicArn(), t.endpoint(), "Notification", m.messageId(),
                Map.of("x-amz-sns-subscription-arn", t.subscriptionArn()), event, t.policy()));
    }

    private static Map<String, String> headers(String type, String messageId, String topicArn, String subscriptionArn,
                                               HttpRetryPolicy policy, boolean raw) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", policy.contentType());
        h.put("User-Agent", USER_AGENT);
        h.put("x-amz-sns-message-type", type);
        h.put("x-amz-sns-message-id", messageId);
        h.put("x-amz-sns-topic-arn", topicArn);
        if (subscriptionArn != null) {
            h.put("x-amz-sns-subscription-arn", subscriptionArn);
        }
        if (raw) {
            h.put("x-amz-sns-rawdelivery", "true");
        }
        return h;
    }

    @Override
    public boolean park(HttpDelivery d, String reason) {
        if (!d.messageType().equals("Notification")) {
            return false; // a confirmation that cannot be delivered leaves the subscription pending, as at SNS
        }
        if (QueueCalls.isQueueArn(d.endpoint())) { // a queue send the outbox retried: its body is the SendMessage input
            JsonNode input;
            try {
                input = JSON.readTree(d.body());
            } catch (java.io.IOException e) {
                return false;
            }
            return parkBody(d.subscriptionArn(), input.path("MessageBody").asText(), input.path("MessageGroupId").asText(null),
                    input.path("MessageDeduplicationId").asText(null));
        }
        if (SnsArns.isLambdaArn(d.endpoint())) { // the DLQ gets the notification a queue would have, not the event
            try {
                return parkBody(d.subscriptionArn(), NotificationEnvelopes.envelopeOfLambdaEvent(d.body()), null, null);
            } catch (java.io.IOException e) {
                return false;
            }
        }
        return parkBody(d.subscriptionArn(), new String(d.body(), StandardCharsets.UTF_8), null, null);
    }

    /**
     * Sends {@code body} to the subscription's RedrivePolicy queue (same account, as SNS requires), counted as
     * NumberOfNotificationsRedrivenToDlq or, when the DLQ is missing or refuses, NumberOfNotificationsFailedToRedriveToDlq.
     * @return false when the subscription has no DLQ, is gone, or the DLQ refuses (the message is then dropped)
     */
    boolean parkBody(String subscriptionArn, String body, String groupId, String deduplicationId) {
        SnsTopics state = topics;
        if (state == null) {
            return false;
        }
        String redrive;
        try {
            redrive = state.read(s -> s.subscriptionAttributes(subscriptionArn).get("RedrivePolicy"));
        } catch (SnsException gone) {
            return false; // unsubscribed meanwhile
        }
        if (redrive == null || redrive.isEmpty()) {
            return false;
        }
        String topicArn = SnsArns.topicOfSubscription(subscriptionArn);
        boolean parked = sendToDeadLetterQueue(topicArn, redrive, body, groupId, deduplicationId);
        metrics.count(topicArn, parked ? SnsTopicMetrics.Count.REDRIVEN_TO_DLQ : SnsTopicMetrics.Count.FAILED_TO_REDRIVE_TO_DLQ);
        return parked;
    }

    /** The DLQ's own policy must let SNS send (QueueDeliveryPolicy, as for a target queue, with --auth sigv4). */
    private boolean sendToDeadLetterQueue(String topicArn, String redrive, String body, String groupId,
                                          String deduplicationId) {
        String queueArn;
        try {
            JsonNode p = JSON.readTree(redrive);
            queueArn = p.path("deadLetterTargetArn").asText();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return false;
        }
        if (!SnsArns.isQueueArn(queueArn)) {
            return false;
        }
        ObjectNode input = JSON.createObjectNode().put("QueueUrl", QueueCalls.queueUrl(queueArn)).put("MessageBody", body);
        if (queueArn.endsWith(".fifo") && groupId != null) { // a FIFO topic's subscription has a FIFO DLQ
            input.put("MessageGroupId", groupId);
            if (deduplicationId != null) {
                input.put("MessageDeduplicationId", deduplicationId);
            }
        }
        try {
            if (queuePolicy.enforced() && !queuePolicy.allows(topicArn, queueArn, queues.policy(queueArn))) {
                return false; // the DLQ's policy denies SNS: the message is dropped, counted as failed to redrive
            }
            queues.call(queueArn.split(":")[4], "SendMessage", input).join();
            return true;
        } catch (RuntimeException e) {
            return false; // a missing DLQ: the message is dropped, as at SNS
        }
    }

    /** The number of targets of {@code targets} that are HTTP/S or lambda, whose deliveries need outbox room. */
    static int httpCount(List<SnsPublisher.Target> targets) {
        int n = 0;
        for (SnsPublisher.Target t : targets) {
            if (t.viaOutbox()) {
                n++;
            }
        }
        return n;
    }

    Map<String, Long> counters() {
        return outbox.counters();
    }

    @Override
    public void close() {
        outbox.close();
    }
}
