package io.hikyaku.sns;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.filter.SnsFilterPolicy;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * The JSON an SQS subscriber receives when raw delivery is off, with SNS's key order: Type, MessageId, TopicArn,
 * Subject (when given), Message, Timestamp, SignatureVersion, Signature, SigningCertURL, UnsubscribeURL and
 * MessageAttributes (when any). A FIFO topic's envelope has SequenceNumber after MessageId and no signature.
 */
final class SnsEnvelope {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private SnsEnvelope() {
    }

    static String notification(PublishedMessage m, boolean fifo, String subscriptionArn, String baseUrl,
                               SnsSigner signer, String signatureVersion) {
        ObjectNode n = JSON.createObjectNode();
        String timestamp = TIMESTAMP.format(Instant.ofEpochMilli(m.timestampMillis()));
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
            n.put("Signature", signer.sign(stringToSign(m, timestamp), signatureVersion));
            n.put("SigningCertURL", baseUrl + signer.certificatePath());
        }
        n.put("UnsubscribeURL", baseUrl + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn);
        if (!m.attributes().isEmpty()) {
            ObjectNode attributes = n.putObject("MessageAttributes");
            for (Map.Entry<String, SnsFilterPolicy.Attribute> e : m.attributes().entrySet()) {
                attributes.putObject(e.getKey()).put("Type", e.getValue().dataType()).put("Value", e.getValue().value());
            }
        }
        return n.toString();
    }

    /** SNS's string to sign for a Notification: each present key then its value, each followed by a newline. */
    static String stringToSign(PublishedMessage m, String timestamp) {
        StringBuilder s = new StringBuilder();
        s.append("Message\n").append(m.message()).append('\n');
        s.append("MessageId\n").append(m.messageId()).append('\n');
        if (m.subject() != null) {
            s.append("Subject\n").append(m.subject()).append('\n');
        }
        s.append("Timestamp\n").append(timestamp).append('\n');
        s.append("TopicArn\n").append(m.topicArn()).append('\n');
        s.append("Type\nNotification\n");
        return s.toString();
    }
}
