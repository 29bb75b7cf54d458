package io.hikyaku.sns;

import io.hikyaku.filter.SnsFilterPolicy;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads and validates one Publish (or batch entry) into a {@link PublishedMessage}, with SNS's texts. FIFO sequence
 * numbers come from one counter started at the start time in microseconds, so they grow across restarts while the
 * clock does (they are not yet state-machine data).
 */
final class PublishReader {

    private final AtomicLong sequence;

    PublishReader(long startMillis) {
        this.sequence = new AtomicLong(startMillis * 1000);
    }

    PublishedMessage read(SnsParams p, SnsApi.TopicView topic, String messageId, long now) throws SnsException {
        String message = p.get("Message");
        if (message == null || message.isEmpty()) {
            throw SnsException.invalidParameter("Empty message");
        }
        String subject = p.get("Subject");
        if (subject != null && (subject.isEmpty() || subject.length() >= 100 || subject.contains("\n") || subject.contains("\r"))) {
            throw SnsException.invalidParameter("Subject");
        }
        Map<String, SnsFilterPolicy.Attribute> attributes = attributes(p);
        if ("json".equals(p.get("MessageStructure"))) {
            message = SnsPublisher.defaultOfStructured(message);
            attributes = Map.of(); // attributes travel only with a String message structure
        }
        String group = p.get("MessageGroupId");
        String dedup = p.get("MessageDeduplicationId");
        String sequenceNumber = null;
        if (topic.fifo()) {
            if (group == null) {
                throw SnsException.invalidParameter("The MessageGroupId parameter is required for FIFO topics");
            }
            if (dedup == null) {
                if (!topic.contentDeduplication()) {
                    throw SnsException.invalidParameter("The topic should either have ContentBasedDeduplication enabled "
                            + "or MessageDeduplicationId provided explicitly");
                }
                dedup = SnsPublisher.contentDeduplicationId(message);
            }
            sequenceNumber = String.format("%020d", sequence.incrementAndGet());
        } else if (dedup != null) {
            throw SnsException.invalidParameter("MessageDeduplicationId Reason: The request includes "
                    + "MessageDeduplicationId parameter that is not valid for this topic type");
        }
        return new PublishedMessage(topic.arn(), messageId, message, subject, attributes, group, dedup, sequenceNumber, now);
    }

    private static Map<String, SnsFilterPolicy.Attribute> attributes(SnsParams p) throws SnsException {
        Map<String, SnsFilterPolicy.Attribute> out = new TreeMap<>();
        for (int i = 1; ; i++) {
            String prefix = "MessageAttributes.entry." + i;
            String name = p.get(prefix + ".Name");
            if (name == null) {
                return out;
            }
            String type = p.get(prefix + ".Value.DataType");
            if (type == null) {
                throw new SnsException("ValidationError", 400, "1 validation error detected: Value null at "
                        + "'messageAttributes." + name + ".member.dataType' failed to satisfy constraint: Member must not be null");
            }
            if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length >= 256) {
                throw invalid("Length of message attribute name must be less than 256 bytes.");
            }
            if (!(type.startsWith("String") || type.startsWith("Number") || type.startsWith("Binary"))) {
                throw invalid("The message attribute '" + name + "' has an invalid message attribute type, the set of "
                        + "supported type prefixes is Binary, Number, and String.");
            }
            String value;
            if (type.startsWith("Binary")) {
                value = p.get(prefix + ".Value.BinaryValue");
                if (value == null) {
                    throw invalid("The message attribute '" + name + "' with type 'Binary' must use field 'Binary'.");
                }
            } else {
                value = p.get(prefix + ".Value.StringValue");
                if (value == null || value.isEmpty()) {
                    throw invalid("The message attribute '" + name + "' must contain non-empty message attribute value "
                            + "for message attribute type '" + (type.startsWith("Number") ? "Number" : "String") + "'.");
                }
            }
            out.put(name, new SnsFilterPolicy.Attribute(type, value));
        }
    }

    private static SnsException invalid(String message) {
        return new SnsException("ParameterValueInvalid", 400, message);
    }
}
