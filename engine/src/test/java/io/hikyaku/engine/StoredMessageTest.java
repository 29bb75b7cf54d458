package io.hikyaku.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredMessageTest {

    private static StoredMessage message(String group, String body, Map<String, MessageAttribute> attrs,
                                         String trace, String dedup, String seqNo, String source) {
        return new StoredMessage(group, 1_700_000_000_123L, 1_700_000_005_000L, "5fea7756-0ea4-451a-a703-a558b933e274",
                body, attrs, trace, dedup, "AIDAIENQZJOLO23YVJ4VO", seqNo, source, "digest-not-stored");
    }

    private static List<StoredMessage> samples() {
        Map<String, MessageAttribute> attrs = new LinkedHashMap<>();
        attrs.put("plain", new MessageAttribute("String", "value", null));
        attrs.put("number", new MessageAttribute("Number.int", "42", null));
        attrs.put("bin", new MessageAttribute("Binary", null, new byte[] {0, 1, (byte) 0xff}));
        attrs.put("名前", new MessageAttribute("String.ü", "ünïcødé \uD83D\uDE00", null));
        return List.of(
                message(null, "x".repeat(256), null, null, null, null, null),
                message(null, "", Map.of(), null, null, null, null),
                message("group-1", "héllo wörld", attrs, "Root=1-5759e988-bd862e3fe1be46a994272793", "dedup",
                        "18849496460467696128", "arn:aws:sqs:us-east-1:000000000000:source"),
                message("g", "emoji \uD83D\uDE00 and a lone surrogate \uD800 here", attrs, null, null, null, null),
                message(null, "\u00ff".repeat(70_000), null, null, null, null, null));
    }

    @Test
    void encodedSizeIsTheExactLengthOfTheEncoding() {
        for (StoredMessage m : samples()) {
            assertEquals(m.encodedSize(), m.encode().length, () -> "body of " + m.body().length() + " chars");
        }
    }

    @Test
    void encodingRoundTripsEveryField() {
        for (StoredMessage m : samples()) {
            StoredMessage back = StoredMessage.decode(m.encode());
            assertEquals(m.groupId(), back.groupId());
            assertEquals(m.sentAt(), back.sentAt());
            assertEquals(m.availableAt(), back.availableAt());
            assertEquals(m.messageId(), back.messageId());
            assertEquals(new String(m.body().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.nio.charset.StandardCharsets.UTF_8), back.body());
            assertEquals(m.awsTraceHeader(), back.awsTraceHeader());
            assertEquals(m.deduplicationId(), back.deduplicationId());
            assertEquals(m.senderId(), back.senderId());
            assertEquals(m.sequenceNumber(), back.sequenceNumber());
            assertEquals(m.sourceArn(), back.sourceArn());
            Map<String, MessageAttribute> sent = m.attributes() == null ? Map.of() : m.attributes();
            assertEquals(sent.keySet(), back.attributes().keySet());
            for (var e : sent.entrySet()) {
                MessageAttribute got = back.attributes().get(e.getKey());
                assertEquals(e.getValue().dataType(), got.dataType());
                assertEquals(e.getValue().stringValue(), got.stringValue());
                assertArrayEquals(e.getValue().binaryValue(), got.binaryValue());
            }
            StoredMessage.Head head = StoredMessage.decodeHead(m.encode());
            assertEquals(m.groupId(), head.groupId());
        }
    }
}
