package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.QueryShape.Blob;
import io.hikyaku.protocol.QueryShape.Field;
import io.hikyaku.protocol.QueryShape.ListOf;
import io.hikyaku.protocol.QueryShape.MapOf;
import io.hikyaku.protocol.QueryShape.Scalar;
import io.hikyaku.protocol.QueryShape.Struct;

import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns flat Query parameters ({@code Attribute.1.Name=DelaySeconds}) into the JSON 1.0 input
 * shape ({@code "Attributes":{"DelaySeconds":"5"}}), driven by {@link QueryModel}. Scalars stay
 * text. Items are ordered by their index; gaps are closed; parameters the model does not name
 * (Action, Version, signature parameters, malformed indexes) are ignored.
 */
final class QueryInputConverter {

    /** The largest index accepted: 9 digits, so it always fits an int and never sizes anything. */
    private static final int MAX_INDEX_DIGITS = 9;

    private QueryInputConverter() {}

    static ObjectNode convert(Struct shape, Map<String, String> params) {
        return struct(shape, params, "");
    }

    /** {@code params} holds only this structure's parameters, its prefix stripped; {@code path} names it in errors. */
    private static ObjectNode struct(Struct shape, Map<String, String> params, String path) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (Field field : shape.fields()) {
            String name = field.queryName();
            QueryShape fieldShape = field.shape();
            if (fieldShape instanceof Scalar) {
                String value = params.get(name);
                if (value != null) {
                    out.put(field.jsonName(), value);
                }
            } else if (fieldShape instanceof Blob) {
                String value = params.get(name);
                if (value != null) {
                    out.put(field.jsonName(), canonicalBase64(value, path + name));
                }
            } else if (fieldShape instanceof ListOf list) {
                TreeMap<Integer, Item> items = itemsOf(params, name);
                if (items.isEmpty()) {
                    // Clients generated from the JSON model, which has no Query names, send the
                    // non-flattened form "MessageSystemAttributeNames.member.1".
                    name = field.jsonName() + ".member";
                    items = itemsOf(params, name);
                }
                if (!items.isEmpty()) {
                    out.set(field.jsonName(), list(list, items, path + name + "."));
                } else if ("".equals(params.get(field.jsonName()))) {
                    out.putArray(field.jsonName()); // how botocore sends an empty list: "Entries="
                }
            } else if (fieldShape instanceof MapOf map) {
                TreeMap<Integer, Item> items = itemsOf(params, name);
                if (items.isEmpty() && !name.equals(field.jsonName())) {
                    // Older SDKs (Java v2 before JSON, used by the temporary queues client) send the
                    // JSON member name, e.g. "Tags.1.Key" instead of "Tag.1.Key"; Amazon SQS accepts both.
                    name = field.jsonName();
                    items = itemsOf(params, name);
                }
                if (!items.isEmpty()) {
                    out.set(field.jsonName(), map(map, items, path + name + "."));
                }
            } else if (fieldShape instanceof Struct inner) {
                Map<String, String> children = childrenOf(params, name + ".");
                if (!children.isEmpty()) {
                    out.set(field.jsonName(), struct(inner, children, path + name + "."));
                }
            }
        }
        return out;
    }

    private static ArrayNode list(ListOf list, TreeMap<Integer, Item> items, String path) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (Map.Entry<Integer, Item> e : items.entrySet()) {
            Item item = e.getValue();
            if (list.member() instanceof Struct member) {
                out.add(struct(member, item.children, path + e.getKey() + "."));
            } else if (item.value != null && list.member() instanceof Blob) {
                out.add(canonicalBase64(item.value, path + e.getKey()));
            } else if (item.value != null) {
                out.add(item.value);
            }
        }
        return out;
    }

    private static ObjectNode map(MapOf map, TreeMap<Integer, Item> items, String path) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<Integer, Item> e : items.entrySet()) {
            Map<String, String> entry = e.getValue().children;
            String key = entry.get(map.keyName());
            if (key == null) {
                throw new ApiException("MissingRequiredParameterException",
                        "The request must contain the parameter " + path + e.getKey() + "." + map.keyName() + ".");
            }
            if (map.value() instanceof Struct valueShape) {
                Map<String, String> value = childrenOf(entry, map.valueName() + ".");
                out.set(key, struct(valueShape, value, path + e.getKey() + "." + map.valueName() + "."));
            } else {
                out.put(key, entry.getOrDefault(map.valueName(), ""));
            }
        }
        return out;
    }

    /**
     * A Query blob (form text) as canonical, padded base64, so the api reads it exactly as a JSON blob.
     * Standard alphabet; padding may be left out; CR and LF are skipped (MIME-wrapped values). A single
     * character holds no byte and reads as {@code ""} (the api then refuses the empty value, as SQS did
     * over Query for a one-character value). Anything else that is not base64 (a space, often an
     * unescaped {@code +}; the URL-safe alphabet; misplaced padding) is refused before anything is
     * stored, with InvalidParameterValue naming the parameter (not echoing the value, which may be long).
     */
    static String canonicalBase64(String text, String parameter) {
        String compact = text.indexOf('\r') < 0 && text.indexOf('\n') < 0 ? text : text.replace("\r", "").replace("\n", "");
        if (compact.length() == 1 && isBase64Letter(compact.charAt(0))) {
            return "";
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(compact);
        } catch (IllegalArgumentException e) {
            throw new ApiException("InvalidParameterValue",
                    "Value for parameter " + parameter + " is invalid. Reason: the value is not valid base64.");
        }
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static boolean isBase64Letter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    }

    /** One indexed item: {@code Name.N} is its value, {@code Name.N.rest} its children. */
    private static final class Item {
        String value;
        final Map<String, String> children = new HashMap<>();
    }

    private static TreeMap<Integer, Item> itemsOf(Map<String, String> params, String name) {
        TreeMap<Integer, Item> items = new TreeMap<>();
        String prefix = name + ".";
        for (Map.Entry<String, String> p : params.entrySet()) {
            String key = p.getKey();
            if (!key.startsWith(prefix)) {
                continue;
            }
            int dot = key.indexOf('.', prefix.length());
            String digits = dot < 0 ? key.substring(prefix.length()) : key.substring(prefix.length(), dot);
            Integer index = parseIndex(digits);
            if (index == null) {
                continue;
            }
            Item item = items.computeIfAbsent(index, i -> new Item());
            if (dot < 0) {
                item.value = p.getValue();
            } else {
                item.children.put(key.substring(dot + 1), p.getValue());
            }
        }
        return items;
    }

    private static Map<String, String> childrenOf(Map<String, String> params, String prefix) {
        Map<String, String> children = new HashMap<>();
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (p.getKey().startsWith(prefix)) {
                children.put(p.getKey().substring(prefix.length()), p.getValue());
            }
        }
        return children;
    }

    /** 1..999999999 written canonically (no sign, no leading zero), else null. */
    static Integer parseIndex(String digits) {
        if (digits.isEmpty() || digits.length() > MAX_INDEX_DIGITS || digits.charAt(0) == '0') {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return Integer.parseInt(digits);
    }
}
