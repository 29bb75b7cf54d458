package io.hikyaku.sns;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.filter.SnsFilterPolicy;
import java.time.Instant;
import java.util.Map;

/**
 * The envelopes of one published message, for all its subscriptions. Only {@code UnsubscribeURL} differs between
 * subscriptions, and it is not among the signed keys (Message, MessageId, Subject, Timestamp, TopicArn, Type), so the
 * RSA signature and the JSON before and after that key are made once per publish, on first use, and shared by every
 * copy: an RSA-2048 signature costs about a millisecond, a fan-out to 10 queues signed 10 times before. Not
 * thread-safe: one publish's deliveries are prepared on one thread.
 */
final class NotificationEnvelopes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PublishedMessage m;
    private final boolean fifo;
    private final String baseUrl;
    private final SnsSigner signer;
    private final String signatureVersion;
    /** The JSON up to (not including) the comma before UnsubscribeURL, and what follows that key's value. */
    private String head;
    private String tail;
    private String timestamp;
    private String signature;

    NotificationEnvelopes(PublishedMessage m, boolean fifo, String baseUrl, SnsSigner signer, String signatureVersion) {
        this.m = m;
        this.fifo = fifo;
        this.baseUrl = baseUrl;
        this.signer = signer;
        this.signatureVersion = signatureVersion;
    }

    /** The envelope a subscription receives: SNS's key order, byte for byte as {@link SnsEnvelope} wrote it. */
    String forSubscription(String subscriptionArn) {
        if (head == null) {
            build();
        }
        String url = baseUrl + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn;
        try {
            return head + ",\"UnsubscribeURL\":" + JSON.writeValueAsString(url) + tail;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string always serialises", e);
        }
    }

    private void build() {
        ObjectNode n = JSON.createObjectNode();
        timestamp = SnsEnvelope.TIMESTAMP.format(Instant.ofEpochMilli(m.timestampMillis()));
        n.put("Type", "Notification");
        n.put("MessageId", m.messageId());
        if (fifo) {
            n.put("SequenceNumber", m.sequenceNumber());
        }
        n.put("TopicArn", m.topicArn());
        if (m.subject() != null) {
            n.put("Subject", m.subject());
        }
        n.put("Message", m.message());
        n.put("Timestamp", timestamp);
        if (!fifo) {
            n.put("SignatureVersion", signatureVersion);
            signature = signer.sign(SnsEnvelope.stringToSign(m, timestamp), signatureVersion);
            n.put("Signature", signature);
            n.put("SigningCertURL", baseUrl + signer.certificatePath());
        }
        String before = n.toString();
        head = before.substring(0, before.length() - 1); // without the closing brace
        if (m.attributes().isEmpty()) {
            tail = "}";
            return;
        }
        ObjectNode attributes = JSON.createObjectNode();
        for (Map.Entry<String, SnsFilterPolicy.Attribute> e : m.attributes().entrySet()) {
            attributes.putObject(e.getKey()).put("Type", e.getValue().dataType()).put("Value", e.getValue().value());
        }
        tail = ",\"MessageAttributes\":" + attributes + "}";
    }

    /**
     * The event a {@code lambda} subscription's function receives, as Lambda's SNS event: one record with
     * EventSource {@code aws:sns}, EventVersion {@code 1.0}, EventSubscriptionArn and {@code Sns} (the notification's
     * fields, SigningCertUrl and UnsubscribeUrl spelled as Lambda does, Subject null when none, MessageAttributes
     * always present). Same signature as the other copies. Standard topics only (SNS delivers FIFO topics to SQS only).
     */
    String lambdaEvent(String subscriptionArn) {
        if (head == null) {
            build();
        }
        ObjectNode record = JSON.createObjectNode().put("EventSource", "aws:sns").put("EventVersion", "1.0")
                .put("EventSubscriptionArn", subscriptionArn);
        ObjectNode sns = record.putObject("Sns");
        sns.put("Type", "Notification").put("MessageId", m.messageId()).put("TopicArn", m.topicArn());
        if (m.subject() == null) {
            sns.putNull("Subject");
        } else {
            sns.put("Subject", m.subject());
        }
        sns.put("Message", m.message()).put("Timestamp", timestamp).put("SignatureVersion", signatureVersion)
                .put("Signature", signature).put("SigningCertUrl", baseUrl + signer.certificatePath())
                .put("UnsubscribeUrl", baseUrl + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn);
        ObjectNode attributes = sns.putObject("MessageAttributes");
        for (Map.Entry<String, SnsFilterPolicy.Attribute> e : m.attributes().entrySet()) {
            attributes.putObject(e.getKey()).put("Type", e.getValue().dataType()).put("Value", e.getValue().value());
        }
        ObjectNode event = JSON.createObjectNode();
        event.putArray("Records").add(record);
        return event.toString();
    }

    /**
     * The notification envelope inside a Lambda event (what a lambda subscription's DLQ receives, as a queue
     * subscription would have): the keys renamed back, Subject and MessageAttributes only when present.
     */
    static String envelopeOfLambdaEvent(byte[] event) throws java.io.IOException {
        JsonNode sns = JSON.readTree(event).path("Records").path(0).path("Sns");
        ObjectNode n = JSON.createObjectNode();
        for (java.util.Iterator<Map.Entry<String, JsonNode>> it = sns.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = switch (e.getKey()) {
                case "SigningCertUrl" -> "SigningCertURL";
                case "UnsubscribeUrl" -> "UnsubscribeURL";
                default -> e.getKey();
            };
            if ((key.equals("Subject") && e.getValue().isNull()) || (key.equals("MessageAttributes") && e.getValue().isEmpty())) {
                continue;
            }
            n.set(key, e.getValue());
        }
        return n.toString();
    }
}
