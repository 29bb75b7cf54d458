package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.ReceivedMessage;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which system and user attributes a ReceiveMessage returns.
 *
 * <p>System attributes: over JSON, a non-empty MessageSystemAttributeNames wins over the deprecated
 * AttributeNames; over Query only AttributeNames counts (sqs-behaviours 45). Unknown names are
 * ignored (AttributeNames also admits queue attribute names). User attributes: {@code All},
 * {@code *} and {@code .*} select all, {@code prefix.*} a prefix, anything else an exact name;
 * an illegal name selects nothing and is no error (behaviour 44).
 */
final class ReceiveSelection {

    static final List<String> SYSTEM_NAMES = List.of("SenderId", "SentTimestamp", "ApproximateReceiveCount",
            "ApproximateFirstReceiveTimestamp", "SequenceNumber", "MessageDeduplicationId", "MessageGroupId",
            "AWSTraceHeader", "DeadLetterQueueSourceArn");

    private final Set<String> systemNames;
    private final boolean allUserAttributes;
    private final Set<String> exactUserNames;
    private final List<String> userPrefixes;

    private ReceiveSelection(Set<String> systemNames, boolean allUserAttributes, Set<String> exactUserNames,
                             List<String> userPrefixes) {
        this.systemNames = systemNames;
        this.allUserAttributes = allUserAttributes;
        this.exactUserNames = exactUserNames;
        this.userPrefixes = userPrefixes;
    }

    static ReceiveSelection of(Input input) {
        List<String> requested = input.stringList("AttributeNames");
        if (!input.isQuery()) {
            List<String> newer = input.stringList("MessageSystemAttributeNames");
            if (!newer.isEmpty()) {
                requested = newer;
            }
        }
        Set<String> system = new LinkedHashSet<>();
        for (String name : requested) {
            if (name.equals("All")) {
                system.addAll(SYSTEM_NAMES);
            } else if (SYSTEM_NAMES.contains(name)) {
                system.add(name);
            }
        }
        boolean all = false;
        Set<String> exact = new LinkedHashSet<>();
        List<String> prefixes = new java.util.ArrayList<>();
        for (String name : input.stringList("MessageAttributeNames")) {
            if (name.equals("All") || name.equals("*") || name.equals(".*")) {
                all = true;
            } else if (name.endsWith(".*")) {
                String prefix = name.substring(0, name.length() - 2);
                if (AttributeNames.isValid(prefix)) {
                    prefixes.add(prefix);
                }
            } else if (AttributeNames.isValid(name)) {
                exact.add(name);
            }
        }
        // A parked long poll keeps its selection: hold nothing for what was not asked for.
        return new ReceiveSelection(system.isEmpty() ? Set.of() : system, all, exact.isEmpty() ? Set.of() : exact,
                prefixes.isEmpty() ? List.of() : prefixes);
    }

    /** The system attributes of {@code m} the client asked for, as the Attributes map. */
    ObjectNode systemAttributes(ReceivedMessage m) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (String name : systemNames) {
            String value = switch (name) {
                case "SenderId" -> m.senderId();
                case "SentTimestamp" -> Long.toString(m.sentTimestamp());
                case "ApproximateReceiveCount" -> Integer.toString(m.approximateReceiveCount());
                case "ApproximateFirstReceiveTimestamp" -> Long.toString(m.approximateFirstReceiveTimestamp());
                case "SequenceNumber" -> m.sequenceNumber();
                case "MessageDeduplicationId" -> m.deduplicationId();
                case "MessageGroupId" -> m.groupId();
                case "AWSTraceHeader" -> m.awsTraceHeader();
                case "DeadLetterQueueSourceArn" -> m.deadLetterQueueSourceArn();
                default -> null;
            };
            if (value != null) {
                out.put(name, value);
            }
        }
        return out;
    }

    /** The user attributes the client asked for, in the message's order. */
    Map<String, MessageAttribute> userAttributes(Map<String, MessageAttribute> attributes) {
        Map<String, MessageAttribute> out = new LinkedHashMap<>();
        if (attributes == null) {
            return out;
        }
        for (Map.Entry<String, MessageAttribute> e : attributes.entrySet()) {
            if (selects(e.getKey())) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private boolean selects(String name) {
        if (allUserAttributes || exactUserNames.contains(name)) {
            return true;
        }
        for (String prefix : userPrefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
