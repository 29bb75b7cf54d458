package io.hikyaku.sns;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * The JSON bodies SNS POSTs to HTTP/S subscribers besides notifications (which are {@link SnsEnvelope}'s):
 * {@code SubscriptionConfirmation} (at Subscribe) and {@code UnsubscribeConfirmation} (at Unsubscribe), with SNS's
 * key order (Type, MessageId, Token, TopicArn, Message, SubscribeURL, Timestamp, SignatureVersion, Signature,
 * SigningCertURL) and their string to sign (Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type, each
 * key and value followed by a newline).
 */
final class HttpMessages {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpMessages() {
    }

    static String subscribeUrl(String baseUrl, String topicArn, String token) {
        return baseUrl + "/?Action=ConfirmSubscription&TopicArn=" + topicArn + "&Token=" + token;
    }

    static String confirmation(String messageId, String topicArn, String token, String baseUrl, long atMillis,
                               SnsSigner signer, String signatureVersion) {
        String message = "You have chosen to subscribe to the topic " + topicArn
                + ".\nTo confirm the subscription, visit the SubscribeURL included in this message.";
        return withToken("SubscriptionConfirmation", message, messageId, topicArn, token, baseUrl, atMillis, signer,
                signatureVersion);
    }

    static String unsubscribeConfirmation(String messageId, String subscriptionArn, String topicArn, String token,
                                          String baseUrl, long atMillis, SnsSigner signer, String signatureVersion) {
        String message = "You have chosen to deactivate subscription " + subscriptionArn
                + ".\nTo cancel this operation and restore the subscription, visit the SubscribeURL included in this message.";
        return withToken("UnsubscribeConfirmation", message, messageId, topicArn, token, baseUrl, atMillis, signer,
                signatureVersion);
    }

    private static String withToken(String type, String message, String messageId, String topicArn, String token,
                                    String baseUrl, long atMillis, SnsSigner signer, String signatureVersion) {
        String subscribeUrl = subscribeUrl(baseUrl, topicArn, token);
        String timestamp = SnsEnvelope.TIMESTAMP.format(Instant.ofEpochMilli(atMillis));
        String toSign = "Message\n" + message + "\nMessageId\n" + messageId + "\nSubscribeURL\n" + subscribeUrl
                + "\nTimestamp\n" + timestamp + "\nToken\n" + token + "\nTopicArn\n" + topicArn
                + "\nType\n" + type + "\n";
        ObjectNode n = JSON.createObjectNode();
        n.put("Type", type);
        n.put("MessageId", messageId);
        n.put("Token", token);
        n.put("TopicArn", topicArn);
        n.put("Message", message);
        n.put("SubscribeURL", subscribeUrl);
        n.put("Timestamp", timestamp);
        n.put("SignatureVersion", signatureVersion);
        n.put("Signature", signer.sign(toSign, signatureVersion));
        n.put("SigningCertURL", baseUrl + signer.certificatePath());
        return n.toString();
    }
}
