package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

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
    private final SqsService sqs;
    private final String region;
    private final HttpOutbox outbox;
    private volatile SnsTopics topics;
    private final AtomicLong dlqRequests = new AtomicLong();

    HttpSubscribers(OutboundAllowList allow, SnsSigner signer, SqsService sqs, String region,
                    HttpEndpointClient.Poster poster, OutboxLog log, int capacity, int workers) {
        this.allow = allow;
        this.signer = signer;
        this.sqs = sqs;
        this.region = region;
        this.outbox = new HttpOutbox(poster, this, log, capacity, workers);
    }

    /** Tests: a given outbox factory (manual executor and timer). */
    HttpSubscribers(OutboundAllowList allow, SnsSigner signer, SqsService sqs, String region,
                    java.util.function.Function<HttpOutbox.DeadLetters, HttpOutbox> outbox) {
        this.allow = allow;
        this.signer = signer;
        this.sqs = sqs;
        this.region = region;
        this.outbox = outbox.apply(this);
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

    /** Queues a notification; the room was reserved by the caller. */
    void sendNotification(PublishedMessage m, SnsPublisher.Target t, String baseUrl, String signatureVersion)
            throws SnsException {
        String body = t.raw() ? m.message() : SnsEnvelope.notification(m, false, t.subscriptionArn(), baseUrl, signer,
                signatureVersion);
        Map<String, String> headers = headers("Notification", m.messageId(), m.topicArn(), t.subscriptionArn(),
                t.policy(), t.raw());
        outbox.submit(new HttpDelivery(t.subscriptionArn(), m.topicArn(), t.endpoint(), "Notification", m.messageId(),
                headers, body.getBytes(StandardCharsets.UTF_8), t.policy()));
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
        return parkBody(d.subscriptionArn(), new String(d.body(), StandardCharsets.UTF_8), null, null);
    }

    /**
     * Sends {@code body} to the subscription's RedrivePolicy queue (same account, as SNS requires).
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
        String queueArn;
        try {
            JsonNode p = JSON.readTree(redrive);
            queueArn = p.path("deadLetterTargetArn").asText();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return false;
        }
        String[] arn = queueArn.split(":");
        if (arn.length != 6) {
            return false;
        }
        ObjectNode input = JSON.createObjectNode()
                .put("QueueUrl", "http://hikyaku.internal/" + arn[4] + "/" + arn[5])
                .put("MessageBody", body);
        if (arn[5].endsWith(".fifo") && groupId != null) { // a FIFO topic's subscription has a FIFO DLQ
            input.put("MessageGroupId", groupId);
            if (deduplicationId != null) {
                input.put("MessageDeduplicationId", deduplicationId);
            }
        }
        CallContext context = new CallContext(arn[4], region, "http://hikyaku.internal", null,
                "sns-dlq-" + dlqRequests.incrementAndGet());
        try {
            sqs.invoke(context, new ApiRequest("SendMessage", input, WireProtocol.JSON, true, "/")).join();
            return true;
        } catch (RuntimeException e) {
            return false; // a missing DLQ: the message is dropped, as at SNS
        }
    }

    /** The number of targets of {@code targets} that are HTTP/S, whose deliveries need outbox room. */
    static int httpCount(List<SnsPublisher.Target> targets) {
        int n = 0;
        for (SnsPublisher.Target t : targets) {
            if (t.isHttp()) {
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
