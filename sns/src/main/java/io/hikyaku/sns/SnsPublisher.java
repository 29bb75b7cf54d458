package io.hikyaku.sns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.filter.SnsFilterPolicy;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivers a published message to the topic's confirmed {@code sqs} subscriptions on this server, in-process
 * through {@link SqsService#invoke} (as push delivery does), after each subscription's filter policy. The publish
 * completes once every matching queue has accepted (made durable) its copy. Not atomic yet: a failure between two
 * queues leaves the first with its copy (the publisher sees an error and may retry, so at-least-once). A queue that
 * no longer exists or refuses counts as a failed notification and does not fail the publish, as at AWS.
 * HTTP/S subscriptions go through {@link HttpSubscribers}' outbox (off the request path; room is reserved before
 * any queue gets its copy, so a full outbox refuses the whole publish). Lambda subscriptions are not delivered yet.
 */
public final class SnsPublisher {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE_URL = "http://hikyaku.internal";

    private final SqsService sqs;
    private final String region;
    private final SnsSigner signer;
    private final AtomicLong requestIds = new AtomicLong();
    private final HttpSubscribers http;
    private final QueueDeliveryPolicy queuePolicy;
    final AtomicLong deniedByQueuePolicy = new AtomicLong();
    final AtomicLong published = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong filteredOut = new AtomicLong();

    /** Queues only: HTTP/S subscriptions are counted as failed notifications. */
    public SnsPublisher(SqsService sqs, String region) {
        this(sqs, region, SnsSigner.generate(), null, new QueueDeliveryPolicy(false));
    }

    SnsPublisher(SqsService sqs, String region, SnsSigner signer, HttpSubscribers http, QueueDeliveryPolicy queuePolicy) {
        this.sqs = sqs;
        this.region = region;
        this.signer = signer;
        this.http = http;
        this.queuePolicy = queuePolicy;
    }

    SnsSigner signer() {
        return signer;
    }

    HttpSubscribers http() {
        return http;
    }

    /** NumberOfMessagesPublished, NumberOfNotificationsDelivered, NumberOfNotificationsFailed, NumberOfNotificationsFilteredOut. */
    public Map<String, Long> counters() {
        Map<String, Long> out = new java.util.TreeMap<>();
        long httpDelivered = http == null ? 0 : http.outbox().delivered.get();
        long httpFailed = http == null ? 0 : http.outbox().failed.get();
        out.put("NumberOfMessagesPublished", published.get());
        out.put("NumberOfNotificationsDelivered", delivered.get() + httpDelivered);
        out.put("NumberOfNotificationsFailed", failed.get() + httpFailed);
        out.put("NumberOfNotificationsFilteredOut", filteredOut.get());
        out.put("NotificationsDeniedByQueuePolicy", deniedByQueuePolicy.get());
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
            }
        }
        return out;
    }

    /** @throws SnsException Throttled when the HTTP outbox has no room for this message's HTTP deliveries */
    CompletableFuture<Void> deliver(PublishedMessage m, boolean fifoTopic, String signatureVersion, String baseUrl,
                                    List<Target> targets) throws SnsException {
        List<Target> matching = new ArrayList<>();
        int filtered = 0;
        for (Target t : targets) {
            if (t.filter() != null && !t.filter().matches(m.attributes(), m.message())) {
                filtered++;
            } else {
                matching.add(t);
            }
        }
        int httpTargets = HttpSubscribers.httpCount(matching);
        if (http != null) {
            http.outbox().reserve(httpTargets); // before any queue gets its copy: a full outbox refuses the publish
        }
        published.incrementAndGet();
        filteredOut.addAndGet(filtered);
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        int submitted = 0;
        for (Target t : matching) {
            if (t.isHttp()) {
                if (http == null) {
                    failed.incrementAndGet();
                } else {
                    try {
                        http.sendNotification(m, t, baseUrl, signatureVersion);
                    } catch (SnsException logFailed) {
                        http.outbox().release(httpTargets - submitted - 1); // the room the others will not use
                        throw logFailed;
                    }
                    submitted++;
                }
                continue;
            }
            if (t.raw() && m.attributes().size() > 10) {
                failed.incrementAndGet(); // SQS takes 10 attributes: SNS drops the message as a client error
                continue;
            }
            sends.add(send(m, fifoTopic, signatureVersion, baseUrl, t));
        }
        return CompletableFuture.allOf(sends.toArray(new CompletableFuture[0]));
    }

    private CompletableFuture<Void> send(PublishedMessage m, boolean fifoTopic, String signatureVersion, String baseUrl,
                                         Target t) {
        String[] arn = t.endpoint().split(":");
        String queueAccount = arn[4];
        String queueName = arn[5];
        boolean fifoQueue = queueName.endsWith(".fifo");
        ObjectNode input = JSON.createObjectNode().put("QueueUrl", BASE_URL + "/" + queueAccount + "/" + queueName);
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
            input.put("MessageBody", SnsEnvelope.notification(m, fifoTopic, t.subscriptionArn(), baseUrl, signer,
                    signatureVersion));
        }
        if (fifoQueue) {
            input.put("MessageGroupId", m.groupId());
            input.put("MessageDeduplicationId", m.deduplicationId());
        } else if (!fifoTopic && m.groupId() != null) {
            input.put("MessageGroupId", m.groupId()); // a standard topic forwards the group to fair queues
        }
        String topicArn = m.topicArn();
        if (!queuePolicy.enforced()) {
            return sendMessage(queueAccount, input, t);
        }
        ObjectNode read = JSON.createObjectNode().put("QueueUrl", input.get("QueueUrl").asText());
        read.putArray("AttributeNames").add("Policy");
        String policy;
        try { // read here, not in a callback: a callback may run on the engine's thread, which must not call it again
            policy = call(queueAccount, "GetQueueAttributes", read).join().path("Attributes").path("Policy").asText(null);
        } catch (RuntimeException e) {
            return clientSideFailure(e, t, input);
        }
        if (!queuePolicy.allows(topicArn, t.endpoint(), policy)) {
            deniedByQueuePolicy.incrementAndGet();
            failed.incrementAndGet();
            park(t, input);
            return CompletableFuture.completedFuture(null);
        }
        return sendMessage(queueAccount, input, t);
    }

    private CompletableFuture<ObjectNode> call(String account, String action, ObjectNode input) {
        CallContext context = new CallContext(account, region, BASE_URL, null, "sns-" + requestIds.incrementAndGet());
        try {
            return sqs.invoke(context, new ApiRequest(action, input, WireProtocol.JSON, true, "/"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletableFuture<Void> sendMessage(String queueAccount, ObjectNode input, Target t) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        call(queueAccount, "SendMessage", input).whenComplete((out, error) -> {
            if (error == null) {
                delivered.incrementAndGet();
                done.complete(null);
                return;
            }
            clientSideFailure(error, t, input).whenComplete((v, e) -> {
                if (e == null) {
                    done.complete(null);
                } else {
                    done.completeExceptionally(e);
                }
            });
        });
        return done;
    }

    /** A missing or refusing queue: counted, parked in the subscription's DLQ if any, the publish stands (as at AWS). */
    private CompletableFuture<Void> clientSideFailure(Throwable error, Target t, ObjectNode input) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                ? error.getCause() : error;
        failed.incrementAndGet();
        if (cause instanceof ApiException api && isClientSide(api.errorType())) {
            park(t, input);
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.failedFuture(cause);
    }

    private void park(Target t, ObjectNode input) {
        if (http != null) {
            http.parkBody(t.subscriptionArn(), input.path("MessageBody").asText(),
                    input.path("MessageGroupId").asText(null), input.path("MessageDeduplicationId").asText(null));
        }
    }

    private static boolean isClientSide(String errorType) {
        return errorType != null && (errorType.contains("NonExistentQueue") || errorType.contains("QueueDoesNotExist")
                || errorType.contains("AccessDenied") || errorType.contains("InvalidParameterValue")
                || errorType.contains("InvalidMessageContents"));
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
