package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.MessageAttribute;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

/** Building AWS JSON 1.0 response shapes; absent values are left out, never written as null. */
final class Json {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {}

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static ArrayNode array() {
        return NODES.arrayNode();
    }

    /** Puts {@code value} unless it is null. */
    static ObjectNode putIfPresent(ObjectNode node, String name, String value) {
        if (value != null) {
            node.put(name, value);
        }
        return node;
    }

    static ObjectNode stringMap(Map<String, String> map) {
        ObjectNode out = object();
        map.forEach(out::put);
        return out;
    }

    static ArrayNode strings(Collection<String> values) {
        ArrayNode out = array();
        values.forEach(out::add);
        return out;
    }

    /** {name: {DataType, StringValue | BinaryValue (base64)}}. */
    static ObjectNode messageAttributes(Map<String, MessageAttribute> attributes) {
        ObjectNode out = object();
        attributes.forEach((name, a) -> {
            ObjectNode v = out.putObject(name);
            v.put("DataType", a.dataType());
            if (a.binaryValue() != null) {
                v.put("BinaryValue", Base64.getEncoder().encodeToString(a.binaryValue()));
            } else {
                v.put("StringValue", a.stringValue());
            }
        });
        return out;
    }
}
