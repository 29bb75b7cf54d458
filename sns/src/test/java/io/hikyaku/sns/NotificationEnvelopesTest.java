package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.filter.SnsFilterPolicy;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared envelope is byte for byte the one built key by key, and one signature serves every subscription. */
class NotificationEnvelopesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SnsSigner SIGNER = SnsSigner.generate();
    private static final String TOPIC = "arn:aws:sns:us-east-1:000000000000:t";

    private static PublishedMessage message(String subject, Map<String, SnsFilterPolicy.Attribute> attributes) {
        return new PublishedMessage(TOPIC, "6c2b1c2e-0000-4000-8000-000000000001", "hello \"w\"\n/é\u2028", subject,
                attributes, null, null, null, 1_765_000_000_123L);
    }

    /** The envelope as the key-by-key builder wrote it before it was shared. */
    private static String keyByKey(PublishedMessage m, String subscriptionArn, String base, String signature) {
        ObjectNode n = JSON.createObjectNode();
        n.put("Type", "Notification").put("MessageId", m.messageId()).put("TopicArn", m.topicArn());
        if (m.subject() != null) {
            n.put("Subject", m.subject());
        }
        n.put("Message", m.message()).put("Timestamp", "2025-12-06T05:46:40.123Z").put("SignatureVersion", "1")
                .put("Signature", signature).put("SigningCertURL", base + SIGNER.certificatePath())
                .put("UnsubscribeURL", base + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn);
        if (!m.attributes().isEmpty()) {
            ObjectNode a = n.putObject("MessageAttributes");
            m.attributes().forEach((k, v) -> a.putObject(k).put("Type", v.dataType()).put("Value", v.value()));
        }
        return n.toString();
    }

    @Test
    void everySubscriptionGetsTheSameSignatureAndItsOwnUnsubscribeUrl() throws Exception {
        Map<String, SnsFilterPolicy.Attribute> attributes = new LinkedHashMap<>();
        attributes.put("kind", new SnsFilterPolicy.Attribute("String", "a\"b"));
        attributes.put("n", new SnsFilterPolicy.Attribute("Number", "3"));
        for (PublishedMessage m : List.of(message("subj", attributes), message(null, Map.of()))) {
            NotificationEnvelopes shared = new NotificationEnvelopes(m, false, "http://127.0.0.1:9324", SIGNER, "1");
            String signature = null;
            for (String sub : List.of(TOPIC + ":a1", TOPIC + ":b2", TOPIC + ":c3")) {
                String envelope = shared.forSubscription(sub);
                JsonNode parsed = JSON.readTree(envelope);
                if (signature == null) {
                    signature = parsed.get("Signature").asText();
                }
                assertThat(parsed.get("Signature").asText()).isEqualTo(signature);
                assertThat(envelope).isEqualTo(keyByKey(m, sub, "http://127.0.0.1:9324", signature));
                java.security.Signature v = java.security.Signature.getInstance("SHA1withRSA");
                v.initVerify(SIGNER.publicKey());
                v.update(SnsEnvelope.stringToSign(m, parsed.get("Timestamp").asText()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertThat(v.verify(java.util.Base64.getDecoder().decode(signature))).isTrue();
            }
        }
    }

    @Test
    void fifoEnvelopesCarryTheSequenceNumberAndNoSignature() throws Exception {
        PublishedMessage m = new PublishedMessage(TOPIC + ".fifo", "id", "x", null, Map.of(), "g", "d",
                "00000000000000000001", 0L);
        JsonNode n = JSON.readTree(new NotificationEnvelopes(m, true, "http://h", SIGNER, "1").forSubscription("s"));
        Iterator<String> keys = n.fieldNames();
        List<String> order = new java.util.ArrayList<>();
        keys.forEachRemaining(order::add);
        assertThat(order).containsExactly("Type", "MessageId", "SequenceNumber", "TopicArn", "Message", "Timestamp",
                "UnsubscribeURL");
    }
}
