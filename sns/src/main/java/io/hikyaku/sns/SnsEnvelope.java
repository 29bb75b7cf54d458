package io.hikyaku.sns;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The JSON an SQS subscriber receives when raw delivery is off, with SNS's key order: Type, MessageId, TopicArn,
 * Subject (when given), Message, Timestamp, SignatureVersion, Signature, SigningCertURL, UnsubscribeURL and
 * MessageAttributes (when any). A FIFO topic's envelope has SequenceNumber after MessageId and no signature.
 */
final class SnsEnvelope {

    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private SnsEnvelope() {
    }

    /** One subscription's envelope (a publish to several subscriptions shares one {@link NotificationEnvelopes}). */
    static String notification(PublishedMessage m, boolean fifo, String subscriptionArn, String baseUrl,
                               SnsSigner signer, String signatureVersion) {
        return new NotificationEnvelopes(m, fifo, baseUrl, signer, signatureVersion).forSubscription(subscriptionArn);
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
