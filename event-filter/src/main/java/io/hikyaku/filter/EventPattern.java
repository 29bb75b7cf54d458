package io.hikyaku.filter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One compiled Lambda event-filtering pattern: an object whose keys name fields of the SQS record
 * ({@code body}, {@code attributes}, {@code messageAttributes}, ...). Keys are ANDed; a key's value is a
 * nested pattern or a list of rules (ORed); {@code "$or": [pattern, ...]} matches when any of its
 * patterns does.
 *
 * <p>The record's {@code body} is text. A pattern that filters {@code body} with a nested object
 * matches only bodies that are JSON objects or arrays (parsed for the match); a pattern that filters
 * {@code body} with a list of rules matches only bodies that are not JSON (a plain string). A mismatch of
 * the two formats is no match, as Lambda documents.
 */
public final class EventPattern {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, EventPattern> nested;
    private final Map<String, List<ValueRule>> leaves;
    private final List<EventPattern> anyOf;

    private EventPattern(Map<String, EventPattern> nested, Map<String, List<ValueRule>> leaves, List<EventPattern> anyOf) {
        this.nested = nested;
        this.leaves = leaves;
        this.anyOf = anyOf;
    }

    public static EventPattern compile(String pattern) throws InvalidPatternException {
        JsonNode root;
        try {
            root = JSON.readTree(pattern);
        } catch (JsonProcessingException e) {
            throw new InvalidPatternException("not JSON");
        }
        if (root == null || !root.isObject() || root.isEmpty()) {
            throw new InvalidPatternException("a pattern is a non-empty JSON object");
        }
        return compile("", (ObjectNode) root);
    }

    private static EventPattern compile(String path, ObjectNode node) throws InvalidPatternException {
        Map<String, EventPattern> nested = new LinkedHashMap<>();
        Map<String, List<ValueRule>> leaves = new LinkedHashMap<>();
        List<EventPattern> anyOf = new ArrayList<>();
        for (var it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            String at = path.isEmpty() ? key : path + "." + key;
            if (key.equals("$or")) {
                if (!value.isArray() || value.size() < 2) {
                    throw new InvalidPatternException(at + ": $or takes a list of at least two patterns");
                }
                for (JsonNode alternative : value) {
                    if (!alternative.isObject() || alternative.isEmpty()) {
                        throw new InvalidPatternException(at + ": $or takes patterns (objects)");
                    }
                    anyOf.add(compile(path, (ObjectNode) alternative));
                }
            } else if (value.isObject()) {
                if (value.isEmpty()) {
                    throw new InvalidPatternException(at + ": an empty object matches nothing");
                }
                nested.put(key, compile(at, (ObjectNode) value));
            } else if (value.isArray()) {
                if (value.isEmpty()) {
                    throw new InvalidPatternException(at + ": a rule list must not be empty");
                }
                leaves.put(key, ValueRule.compileList(at, value));
            } else {
                throw new InvalidPatternException(at + ": values are lists of rules or nested objects");
            }
        }
        return new EventPattern(nested, leaves, anyOf);
    }

    /** Whether {@code record} (an SQS event record with its body as text) matches. */
    public boolean matches(ObjectNode record) {
        return matchesRecord(record);
    }

    private boolean matchesRecord(ObjectNode record) {
        for (Map.Entry<String, EventPattern> e : nested.entrySet()) {
            JsonNode value = record.get(e.getKey());
            if (e.getKey().equals("body")) {
                value = parsedBody(value);
            }
            if (value == null || !value.isObject() || !e.getValue().matchesNode((ObjectNode) value)) {
                return false;
            }
        }
        for (Map.Entry<String, List<ValueRule>> e : leaves.entrySet()) {
            JsonNode value = record.get(e.getKey());
            if (e.getKey().equals("body") && value != null && value.isTextual() && parsedBody(value) != null) {
                return false; // a JSON body cannot match a plain-string rule
            }
            if (!ValueRule.anyMatches(e.getValue(), value)) {
                return false;
            }
        }
        if (!anyOf.isEmpty()) {
            for (EventPattern alternative : anyOf) {
                if (alternative.matchesRecord(record)) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    private boolean matchesNode(ObjectNode node) {
        for (Map.Entry<String, EventPattern> e : nested.entrySet()) {
            JsonNode value = node.get(e.getKey());
            if (value == null || !value.isObject() || !e.getValue().matchesNode((ObjectNode) value)) {
                return false;
            }
        }
        for (Map.Entry<String, List<ValueRule>> e : leaves.entrySet()) {
            if (!ValueRule.anyMatches(e.getValue(), node.get(e.getKey()))) {
                return false;
            }
        }
        if (!anyOf.isEmpty()) {
            for (EventPattern alternative : anyOf) {
                if (alternative.matchesNode(node)) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    /** The body parsed when it is a JSON object or array, else null. */
    private static JsonNode parsedBody(JsonNode body) {
        if (body == null || !body.isTextual()) {
            return null;
        }
        String text = body.asText().trim();
        if (!(text.startsWith("{") || text.startsWith("["))) {
            return null;
        }
        try {
            JsonNode parsed = JSON.readTree(text);
            return parsed != null && (parsed.isObject() || parsed.isArray()) ? parsed : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
