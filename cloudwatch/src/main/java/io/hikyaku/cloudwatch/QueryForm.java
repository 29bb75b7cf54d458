package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Query protocol input: form parameters ({@code Dimensions.member.1.Name=QueueName}) turned into the
 * same tree RPC v2 CBOR gives ({@code Dimensions: [{Name: QueueName}]}), with every value as text.
 */
final class QueryForm {

    private static final int MAX_PARAMETERS = 10_000;
    private static final int MAX_INDEX = 1_000;

    private QueryForm() {}

    /** The parameters of a form body and a query string (the body's win). */
    static Map<String, String> parameters(String rawQuery, byte[] body) {
        Map<String, String> params = new LinkedHashMap<>();
        decodeInto(rawQuery, params);
        if (body != null && body.length > 0) {
            decodeInto(new String(body, StandardCharsets.UTF_8), params);
        }
        return params;
    }

    private static void decodeInto(String form, Map<String, String> into) {
        if (form == null || form.isEmpty()) {
            return;
        }
        for (String pair : form.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            if (into.size() >= MAX_PARAMETERS) {
                throw CloudWatchException.invalidValue("Too many request parameters.");
            }
            int eq = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                into.put(name, value);
            } catch (IllegalArgumentException e) {
                throw CloudWatchException.malformed("The request has a malformed percent escape.");
            }
        }
    }

    /** The parameter tree (Action and Version excluded). */
    static ObjectNode tree(Map<String, String> params) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, String> e : params.entrySet()) {
            String name = e.getKey();
            if (name.equals("Action") || name.equals("Version")) {
                continue;
            }
            put(root, name.split("\\.", -1), 0, e.getValue());
        }
        return root;
    }

    private static void put(ObjectNode node, String[] parts, int i, String value) {
        String field = parts[i];
        if (field.isEmpty()) {
            return;
        }
        if (i == parts.length - 1) {
            node.put(field, value);
            return;
        }
        if (parts[i + 1].equals("member") && i + 2 < parts.length) {
            int index = index(parts[i + 2]);
            if (index < 0) {
                return;
            }
            ArrayNode list = node.get(field) instanceof ArrayNode a ? a : node.putArray(field);
            while (list.size() < index) {
                list.addObject();
            }
            if (i + 3 == parts.length) {
                list.set(index - 1, JsonNodeFactory.instance.textNode(value));
            } else {
                if (!(list.get(index - 1) instanceof ObjectNode)) {
                    list.set(index - 1, JsonNodeFactory.instance.objectNode());
                }
                put((ObjectNode) list.get(index - 1), parts, i + 3, value);
            }
            return;
        }
        ObjectNode child = node.get(field) instanceof ObjectNode existing ? existing : node.putObject(field);
        put(child, parts, i + 1, value);
    }

    /** A 1-based member index, or -1 when it is not one. */
    private static int index(String s) {
        try {
            int n = Integer.parseInt(s);
            return n >= 1 && n <= MAX_INDEX ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
