package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.SqsService;
import io.hikyaku.filter.SnsFilterPolicy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Delivers a published message to the topic's confirmed {@code sqs} subscriptions on this server, in-process
 * through {@link SqsService#invoke} (as push delivery does), after each subscription's filter policy. The publish
 * completes once every matching queue has accepted (made durable) its copy, or, for a queue that refused server-side
 * (throttled, a store error), once its retry is logged in the durable outbox. Not atomic yet: a failure between two
 * queues leaves the first with its copy (the publisher sees an error and may retry, so at-least-once). A queue that
 * refuses client-side (gone, denied) counts as a failed notification and does not fail the publish, as at AWS.
 * HTTP/S subscriptions go through {@link HttpSubscribers}' outbox (off the request path; room is reserved before
 * any queue gets its copy, so a full outbox refuses the whole publish), and so do lambda subscriptions (Lambda's SNS
 * event, invoked through {@link LambdaInvoker}).
 */
public final class SnsPublisher {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final QueueCalls queues;
    private final SnsSigner signer;
    private final HttpSubscribers http;
    /** Where a queue's refusal is handled: never on the thread that completed the send (it may be the engine's). */
    private final ThreadPoolExecutor afterRefusal = new ThreadPoolExecutor(2, 2, 30, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(10_000), r -> {
                Thread thread = new Thread(r, "sns-queue-refusals");
                thread.setDaemon(true);
                return thread;
            });
    private final QueueDeliveryPolicy queuePolicy;
    private final SnsTopicMetrics metrics;

    /** Queues only: HTTP/S subscriptions are counted as failed notifications. */
    public SnsPublisher(SqsService sqs, String region) {
        this(new QueueCalls(sqs, region), SnsSigner.generate(), null, new QueueDeliveryPolicy(false), new SnsTopicMetrics());
    }

    SnsPublisher(QueueCalls queues, SnsSigner signer, HttpSubscribers http, QueueDeliveryPolicy queuePolicy,
                 SnsTopicMetrics metrics) {
        this.queues = queues;
        this.metrics = metrics;
        this.signer = signer;
        this.afterRefusal.allowCoreThreadTimeOut(true);
        this.http = http;
        this.queuePolicy = queuePolicy;
    }

    SnsSigner signer() {
        return signer;
    }

    HttpSubscribers http() {
        return http;
    }

    SnsTopicMetrics metrics() {
        return metrics;
    }

    /** The AWS/SNS counts server-wide since the start (NumberOfMessagesPublished ...), and the HTTP outbox's meters. */
    public Map<String, Long> counters() {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (SnsTopicMetrics.Count c : SnsTopicMetrics.Count.values()) {
            out.put(c.metricName, metrics.total(c));
        }
        if (http != null) {
            out.putAll(http.counters());
        }
        return out;
    }

    /** One delivery target as read from the state under its lock. */
    record Target(String subscriptionArn, String protocol, String endpoint, boolean raw, SnsFilterPolicy filter,
                  HttpRetryPolicy policy) {
        boolean isHttp() {
            return protocol.equals("http") || protocol.equals("https");
        }

        boolean isLambda() {
            return protocol.equals("lambda");
        }

        /** Delivered through the outbox (HTTP/S and lambda), which needs room reserved before the publish delivers. */
        boolean viaOutbox() {
            return isHttp() || isLambda();
        }

        String topicArn() {
            return SnsArns.topicOfSubscription(subscriptionArn);
        }
    }

    static List<Target> targets(SnsState state, String topicArn) throws SnsException {
        List<Target> out = new ArrayList<>();
        String topicPolicy = null;
        for (Subscription s : state.deliverable(topicArn)) {
            boolean raw = "true".equals(s.attributes.get("RawMessageDelivery"));
            if (s.protocol.equals("sqs")) {
                out.add(new Target(s.arn, s.protocol, s.endpoint, raw, s.filter, null));
            } else if (s.protocol.startsWith("http")) {
                if (topicPolicy == null) {
                    topicPolicy = state.topicAttributes(topicArn).getOrDefault("DeliveryPolicy", "");
                }
                out.add(new Target(s.arn, s.protocol, s.endpoint, raw, s.filter,
                        HttpRetryPolicy.of(topicPolicy, s.attributes.get("DeliveryPolicy"))));
            } else if (s.protocol.equals("lambda")) {
                out.add(new Target(s.arn, s.protocol, s.endpoint, false, s.filter, HttpRetryPolicy.LAMBDA_ASYNC));
            }
        }
        return out;
    }

    /** @throws SnsException Throttled when the HTTP outbox has no room for this message's HTTP deliveries */
    CompletableFuture<Void> deliver(PublishedMessage m, boolean fifoTopic, String signatureVersion, String baseUrl,
                                    List<Target> targets) throws SnsException {
        List<Target> matching = new ArrayList<>();
        int filtered = 0;
        java.util.EnumMap<FilteredOutReason, Integer> reasons = new java.util.EnumMap<>(FilteredOutReason.class);
        for (Target t : targets) {
            if (t.filter() != null && !t.filter().matches(m.attributes(), m.message())) {
                filtered++;
                reasons.merge(FilteredOutReason.of(t.filter(), m.attributes(), m.message()), 1, Integer::sum);
            } else {
                matching.add(t);
            }
        }
        int httpTargets = HttpSubscribers.httpCount(matching);
        if (http != null) {
            http.outbox().reserve(httpTargets); // before any queue gets its copy: a full outbox refuses the publish
        }
        String topic = m.topicArn();
        metrics.published(topic, PublishLimits.size(m));
        metrics.count(topic, SnsTopicMetrics.Count.FILTERED_OUT, filtered);
        reasons.forEach((reason, n) -> {
            if (reason.metric != null) {
                metrics.count(topic, reason.metric, n);
            }
        });
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        NotificationEnvelopes envelopes = new NotificationEnvelopes(m, fifoTopic, baseUrl, signer, signatureVersion);
        int submitted = 0;
        for (Target t : matching) {
            if (t.viaOutbox()) {
                if (http == null) {
                    metrics.count(topic, SnsTopicMetrics.Count.FAILED);
                } else {
                    try {
                        if (t.isLambda()) {
                            http.sendLambdaEvent(m, t, envelopes);
                        } else {
                            http.sendNotification(m, t, envelopes);
                        }
                    } catch (SnsException logFailed) {
                        http.outbox().release(httpTargets - submitted - 1); // the room the others will not use
                        throw logFailed;
                    }
                    submitted++;
                }
                continue;
            }
            if (t.raw() && m.attributes().size() > 10) {
                metrics.count(topic, SnsTopicMetrics.Count.FAILED); // SQS takes 10 attributes: SNS drops it as a client error
                continue;
            }
            sends.add(send(m, fifoTopic, envelopes, t));
        }
        return CompletableFuture.allOf(sends.toArray(new CompletableFuture[0]));
    }

    private CompletableFuture<Void> send(PublishedMessage m, boolean fifoTopic, NotificationEnvelopes envelopes, Target t) {
        String queueArn = t.endpoint();
        boolean fifoQueue = queueArn.endsWith(".fifo");
        ObjectNode input = JSON.createObjectNode().put("QueueUrl", QueueCalls.queueUrl(queueArn));
        if (t.raw()) {
            input.put("MessageBody", m.message());
            if (!m.attributes().isEmpty()) {
                ObjectNode attributes = input.putObject("MessageAttributes");
                m.attributes().forEach((name, a) -> {
                    ObjectNode v = attributes.putObject(name).put("DataType", a.dataType());
                    if (a.dataType().startsWith("Binary")) {
                        v.put("BinaryValue", a.value());
                    } else {
                        v.put("StringValue", a.value());
                    }
                });
            }
        } else {
            input.put("MessageBody", envelopes.forSubscription(t.subscriptionArn()));
        }
        if (fifoQueue) {
            input.put("MessageGroupId", m.groupId());
            input.put("MessageDeduplicationId", m.deduplicationId());
        } else if (!fifoTopic && m.groupId() != null) {
            input.put("MessageGroupId", m.groupId()); // a standard topic forwards the group to fair queues
        }
        if (!queuePolicy.enforced()) {
            return sendMessage(m.messageId(), input, t);
        }
        String policy;
        try { // read here, not in a callback: a callback may run on the engine's thread, which must not call it again
            policy = queues.policy(queueArn);
        } catch (RuntimeException e) {
            try {
                refused(e, m.messageId(), t, input);
                return CompletableFuture.completedFuture(null);
            } catch (CompletionException publishFails) {
                return CompletableFuture.failedFuture(publishFails.getCause());
            }
        }
        if (!queuePolicy.allows(m.topicArn(), queueArn, policy)) {
            metrics.count(t.topicArn(), SnsTopicMetrics.Count.DENIED_BY_QUEUE_POLICY);
            metrics.count(t.topicArn(), SnsTopicMetrics.Count.FAILED);
            park(t, input);
            return CompletableFuture.completedFuture(null);
        }
        return sendMessage(m.messageId(), input, t);
    }

    private CompletableFuture<Void> sendMessage(String messageId, ObjectNode input, Target t) {
        return queues.call(t.endpoint().split(":")[4], "SendMessage", input).handle((out, error) -> error)
                .thenCompose(error -> {
                    if (error == null) {
                        metrics.count(t.topicArn(), SnsTopicMetrics.Count.DELIVERED);
                        return CompletableFuture.completedFuture(null);
                    }
                    // off the completing thread (it may be the engine's): a DLQ send and an outbox write wait
                    return CompletableFuture.runAsync(() -> refused(error, messageId, t, input), afterRefusal);
                });
    }

    /**
     * A queue refused its copy. Client-side (gone, denied, the message or the key refused): counted failed and parked
     * in the subscription's DLQ; the publish stands, as at AWS. Server-side (throttled, a store error): the SendMessage
     * goes to the durable outbox to be retried on SNS's policy for AWS-managed endpoints, and the publish stands once
     * it is logged. Without an outbox, or with no room in it, the publish fails (the publisher retries).
     * @throws CompletionException when the publish must fail
     */
    private void refused(Throwable error, String messageId, Target t, ObjectNode input) {
        if (QueueCalls.clientSide(error)) {
            metrics.count(t.topicArn(), SnsTopicMetrics.Count.FAILED);
            park(t, input);
            return;
        }
        if (http != null) {
            try {
                http.outbox().reserve(1);
                http.outbox().submit(new HttpDelivery(t.subscriptionArn(), t.topicArn(), t.endpoint(), "Notification",
                        messageId, Map.of(), input.toString().getBytes(StandardCharsets.UTF_8), HttpRetryPolicy.AWS_MANAGED));
                return;
            } catch (SnsException noRoom) {
                // fall through: the publish fails
            }
        }
        metrics.count(t.topicArn(), SnsTopicMetrics.Count.FAILED);
        throw new CompletionException(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
    }

    private void park(Target t, ObjectNode input) {
        if (http != null) {
            http.parkBody(t.subscriptionArn(), input.path("MessageBody").asText(),
                    input.path("MessageGroupId").asText(null), input.path("MessageDeduplicationId").asText(null));
        }
    }

    /** SHA-256 hex of the message, the deduplication id of a content-deduplicated FIFO topic. */
    static String contentDeduplicationId(String message) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(message.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The {@code default} entry of a {@code MessageStructure=json} message. */
    static String defaultOfStructured(String message) throws SnsException {
        JsonNode node;
        try {
            node = JSON.readTree(message);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw SnsException.invalidParameter("Message Structure - JSON message body failed to parse");
        }
        if (node == null || !node.isObject() || !node.has("default")) {
            throw SnsException.invalidParameter("Message Structure - No default entry in JSON message body");
        }
        JsonNode sqsEntry = node.get("sqs");
        return (sqsEntry != null ? sqsEntry : node.get("default")).asText();
    }
}
