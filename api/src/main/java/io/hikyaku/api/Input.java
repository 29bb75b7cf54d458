package io.hikyaku.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.WireProtocol;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed reads of one request (or batch entry) in AWS JSON 1.0 shape.
 *
 * <p>Over Query every scalar arrives as text, so numbers and booleans are parsed from text. Over
 * JSON a value of the wrong JSON type is a {@code SerializationException}, as Amazon SQS answers
 * (e.g. "STRING_VALUE can not be converted to an Integer"). A JSON null counts as absent.
 */
final class Input {

    private final ObjectNode node;
    private final WireProtocol protocol;
    /** Who sent the request (a bare queue name in QueueUrl is that caller's queue); null for nested inputs. */
    private final CallContext caller;
    /** The request's target, resolved once ({@link SqsRequests}); null for nested inputs. */
    private final ResolvedRequest target;

    Input(ObjectNode node, WireProtocol protocol) {
        this(node, protocol, null);
    }

    Input(ObjectNode node, WireProtocol protocol, CallContext caller) {
        this(node, protocol, caller, null);
    }

    /** The input of a request whose target {@code target} resolved. */
    Input(ResolvedRequest target, CallContext caller) {
        this(target.request().input(), target.request().protocol(), caller, target);
    }

    private Input(ObjectNode node, WireProtocol protocol, CallContext caller, ResolvedRequest target) {
        this.node = node == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : node;
        this.protocol = protocol;
        this.caller = caller;
        this.target = target;
    }

    /**
     * The queue the request acts on, as resolved once for authorization and routing.
     * @throws io.hikyaku.protocol.ApiException the request's addressing error when it names none
     */
    io.hikyaku.engine.QueueRef queue() {
        if (target == null) {
            throw new IllegalStateException("an input without a resolved target has no queue");
        }
        return target.requireQueue();
    }

    CallContext caller() {
        return caller;
    }

    WireProtocol protocol() {
        return protocol;
    }

    boolean isQuery() {
        return protocol == WireProtocol.QUERY;
    }

    boolean has(String name) {
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    private JsonNode value(String name) {
        JsonNode v = node.get(name);
        return v == null || v.isNull() ? null : v;
    }

    /** The string, or null when absent. */
    String string(String name) {
        return asString(value(name));
    }

    /** The string; absent or empty is MissingParameter. */
    String requiredString(String name) {
        String s = string(name);
        if (s == null || s.isEmpty()) {
            throw Errors.missing(name);
        }
        return s;
    }

    /** The string; absent is MissingParameter, empty is allowed. */
    String requiredStringAllowEmpty(String name) {
        String s = string(name);
        if (s == null) {
            throw Errors.missing(name);
        }
        return s;
    }

    /** The integer, or null when absent. Unparsable Query text is reported with {@code reason}. */
    Long integer(String name, String reason) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber()) {
            if (!v.canConvertToLong()) { // beyond any range: refused in the range's words
                throw Errors.invalidValue(name, v.asText(), reason);
            }
            return v.asLong();
        }
        if (v.isTextual() && isQuery()) {
            String text = v.asText().trim();
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw Errors.invalidValue(name, v.asText(), reason);
            }
        }
        throw wrongType(v, "an Integer");
    }

    /** The integer within [min, max], or {@code fallback} when absent. */
    int intInRange(String name, int fallback, long min, long max, String reason) {
        Long v = integer(name, reason);
        if (v == null) {
            return fallback;
        }
        if (v < min || v > max) {
            throw Errors.invalidValue(name, v, reason);
        }
        return (int) (long) v;
    }

    /** Required integer within [min, max]. */
    int requiredIntInRange(String name, long min, long max, String reason) {
        if (!has(name)) {
            throw Errors.missing(name);
        }
        return intInRange(name, 0, min, max, reason);
    }

    Boolean bool(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (v.isBoolean()) {
            return v.asBoolean();
        }
        if (v.isTextual() && isQuery()) {
            String t = v.asText().trim();
            if (t.equalsIgnoreCase("true")) {
                return true;
            }
            if (t.equalsIgnoreCase("false")) {
                return false;
            }
            throw Errors.invalidValue(name, t, "Must be true or false.");
        }
        throw wrongType(v, "a Boolean");
    }

    /** A list of strings; absent is an empty list. */
    List<String> stringList(String name) {
        JsonNode v = value(name);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!v.isArray()) {
            if (isQuery() && v.isTextual()) {
                out.add(v.asText());
                return out;
            }
            throw wrongType(v, "a List");
        }
        for (JsonNode item : v) {
            if (item.isNull()) {
                continue;
            }
            out.add(asString(item));
        }
        return out;
    }

    /** The entries of a JSON map parameter (none when absent); anything but an object is a type error. */
    private Iterator<Map.Entry<String, JsonNode>> mapEntries(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return java.util.Collections.emptyIterator();
        }
        if (!v.isObject()) {
            throw wrongType(v, "a Map");
        }
        return v.fields();
    }

    /** A map of string to string, in request order; absent is an empty map. */
    Map<String, String> stringMap(String name) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = mapEntries(name); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().isNull() ? null : asString(e.getValue()));
        }
        return out;
    }

    /** A nested structure, or null when absent. */
    Input object(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            throw wrongType(v, "a Structure");
        }
        return new Input((ObjectNode) v, protocol);
    }

    /**
     * A map of name to structure (e.g. MessageAttributes), in request order; absent is empty. A
     * null value is an empty structure (not a missing entry), so the caller's checks refuse it.
     */
    Map<String, Input> objectMap(String name) {
        Iterator<Map.Entry<String, JsonNode>> it = mapEntries(name);
        if (!it.hasNext()) {
            return Map.of(); // the common case (no attributes), asked for four times per sent message
        }
        Map<String, Input> out = new LinkedHashMap<>();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) { // a map value cannot be absent: null reads as {}, so it is validated
                out.put(e.getKey(), new Input(null, protocol));
                continue;
            }
            if (!e.getValue().isObject()) {
                throw wrongType(e.getValue(), "a Structure");
            }
            out.put(e.getKey(), new Input((ObjectNode) e.getValue(), protocol));
        }
        return out;
    }

    /** A list of structures (batch entries); null when absent, so callers can tell [] from missing. */
    List<Input> objectList(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isArray()) {
            throw wrongType(v, "a List");
        }
        List<Input> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (item.isNull()) {
                continue;
            }
            if (!item.isObject()) {
                throw wrongType(item, "a Structure");
            }
            out.add(new Input((ObjectNode) item, protocol));
        }
        return out;
    }

    private String asString(JsonNode v) {
        if (v == null) {
            return null;
        }
        if (v.isTextual()) {
            return v.asText();
        }
        throw wrongType(v, "a String");
    }

    /**
     * SQS's (Coral's) SerializationException for a JSON value of the wrong type: a structure or
     * list where a scalar belongs has its own wording, otherwise "TOKEN can not be converted to X".
     */
    static io.hikyaku.protocol.ApiException wrongType(JsonNode v, String target) {
        boolean scalarTarget = !target.endsWith("List") && !target.endsWith("Map") && !target.endsWith("Structure");
        if (scalarTarget && v.isObject()) {
            return Errors.serialization("Start of structure or map found where not expected.");
        }
        if (scalarTarget && v.isArray()) {
            return Errors.serialization("Start of list found where not expected.");
        }
        return Errors.serialization(tokenName(v) + " can not be converted to " + target);
    }

    /** The token names Coral uses in its SerializationException messages. */
    static String tokenName(JsonNode v) {
        if (v.isObject()) {
            return "START_OBJECT";
        }
        if (v.isArray()) {
            return "START_ARRAY";
        }
        if (v.isTextual()) {
            return "STRING_VALUE";
        }
        if (v.isNumber()) {
            return "NUMBER_VALUE";
        }
        if (v.isBoolean()) {
            return "BOOLEAN_VALUE";
        }
        return "VALUE";
    }
}
