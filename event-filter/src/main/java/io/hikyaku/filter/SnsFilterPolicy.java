package io.hikyaku.filter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compiled SNS subscription filter policy. Keys are ANDed, the values of one key ORed, {@code "$or"} takes
 * alternative policies. With scope {@link FilterPolicyScope#MessageAttributes} the keys name message attributes
 * (String, String.Array and Number are compared; Binary attributes are invisible to filters); with
 * {@link FilterPolicyScope#MessageBody} they name fields of a JSON-object body and may nest.
 *
 * <p>Validation follows SNS: the operators and texts of {@link FilterPolicyException}, at most {@link #MAX_KEYS}
 * leaf keys in any alternative, at most {@link #MAX_COMBINATIONS} value combinations, {@link #MAX_LENGTH} bytes and
 * {@link #MAX_DEPTH} levels of nesting (a Hikyaku bound; SNS documents none). An empty policy {@code {}} matches
 * everything (Terraform writes it for "no filter").
 */
public final class SnsFilterPolicy {

    public static final int MAX_KEYS = 5;
    public static final int MAX_COMBINATIONS = 150;
    public static final int MAX_LENGTH = 256 * 1024;
    public static final int MAX_DEPTH = 32;
    /** SNS compares numbers from -10^9 to 10^9. */
    static final double NUMERIC_LIMIT = 1_000_000_000d;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One attribute of a published message, as SNS carries it: its data type and its string form. */
    public record Attribute(String dataType, String value) { }

    private final FilterPolicyScope scope;
    private final Node root;

    private SnsFilterPolicy(FilterPolicyScope scope, Node root) {
        this.scope = scope;
        this.root = root;
    }

    public FilterPolicyScope scope() {
        return scope;
    }

    public static SnsFilterPolicy compile(String policy, FilterPolicyScope scope) throws FilterPolicyException {
        if (policy.getBytes(StandardCharsets.UTF_8).length > MAX_LENGTH) {
            throw new FilterPolicyException("FilterPolicy: Filter policy is too long");
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(policy);
        } catch (JsonProcessingException e) {
            throw new FilterPolicyException("FilterPolicy: failed to parse JSON. " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new FilterPolicyException("FilterPolicy: Filter policy must be a JSON object");
        }
        Node root = compileNode(tree, scope, 1);
        if (root.maxKeys() > MAX_KEYS) {
            throw new FilterPolicyException("FilterPolicy: Filter policy can not have more than " + MAX_KEYS + " keys");
        }
        if (root.combinations() > MAX_COMBINATIONS) {
            throw new FilterPolicyException("FilterPolicy: Filter policy is too complex");
        }
        return new SnsFilterPolicy(scope, root);
    }

    /** Whether a message with these attributes passes (attribute scope). */
    public boolean matchesAttributes(Map<String, Attribute> attributes) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (Map.Entry<String, Attribute> e : attributes.entrySet()) {
            if (!e.getValue().dataType().startsWith("Binary")) { // SNS filters never see Binary attributes
                values.put(e.getKey(), attributeNode(e.getValue()));
            }
        }
        return root.matches(values::get);
    }

    /** Whether a message with this body passes (body scope): only a JSON-object body can match a non-empty policy. */
    public boolean matchesBody(String body) {
        if (root.isEmpty()) {
            return true;
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return false;
        }
        return tree != null && tree.isObject() && root.matches(tree::get);
    }

    /** The message passes this subscription's policy in its scope. */
    public boolean matches(Map<String, Attribute> attributes, String body) {
        return scope == FilterPolicyScope.MessageBody ? matchesBody(body) : matchesAttributes(attributes);
    }

    private static JsonNode attributeNode(Attribute a) {
        String type = a.dataType() == null ? "" : a.dataType();
        if (type.startsWith("Number")) {
            try {
                return DoubleNode.valueOf(new BigDecimal(a.value()).doubleValue());
            } catch (NumberFormatException e) {
                return TextNode.valueOf(a.value());
            }
        }
        if (type.startsWith("String.Array")) {
            try {
                JsonNode array = JSON.readTree(a.value());
                if (array != null && array.isArray()) {
                    return array;
                }
            } catch (JsonProcessingException e) {
                // not a JSON array: compared as a plain string, as SNS does
            }
        }
        return TextNode.valueOf(a.value());
    }

    private interface Lookup {
        JsonNode get(String key);
    }

    /** One level of the policy: leaf keys with rule lists, nested keys (body scope) and $or alternatives. */
    private record Node(Map<String, List<ValueRule>> leaves, Map<String, Node> nested, List<Node> anyOf) {

        boolean isEmpty() {
            return leaves.isEmpty() && nested.isEmpty() && anyOf.isEmpty();
        }

        /** Leaf keys of the widest alternative once $or is expanded. */
        int maxKeys() {
            int own = leaves.size();
            for (Node n : nested.values()) {
                own += n.maxKeys();
            }
            int widest = 0;
            for (Node alt : anyOf) {
                widest = Math.max(widest, alt.maxKeys());
            }
            return own + widest;
        }

        /** The product of the value-list lengths, summed over $or alternatives (capped to avoid overflow). */
        long combinations() {
            long product = 1;
            for (List<ValueRule> rules : leaves.values()) {
                product = Math.min(product * rules.size(), Integer.MAX_VALUE);
            }
            for (Node n : nested.values()) {
                product = Math.min(product * n.combinations(), Integer.MAX_VALUE);
            }
            if (!anyOf.isEmpty()) {
                long sum = 0;
                for (Node alt : anyOf) {
                    sum = Math.min(sum + alt.combinations(), Integer.MAX_VALUE);
                }
                product = Math.min(product * sum, Integer.MAX_VALUE);
            }
            return product;
        }

        boolean matches(Lookup values) {
            for (Map.Entry<String, List<ValueRule>> e : leaves.entrySet()) {
                if (!ValueRule.anyMatches(e.getValue(), values.get(e.getKey()))) {
                    return false;
                }
            }
            for (Map.Entry<String, Node> e : nested.entrySet()) {
                if (!matchesNested(e.getValue(), values.get(e.getKey()))) {
                    return false;
                }
            }
            if (anyOf.isEmpty()) {
                return true;
            }
            for (Node alt : anyOf) {
                if (alt.matches(values)) {
                    return true;
                }
            }
            return false;
        }

        /** A nested policy matches an object, or any object of an array. */
        private static boolean matchesNested(Node policy, JsonNode value) {
            if (value == null) {
                return policy.matches(key -> null);
            }
            if (value.isObject()) {
                return policy.matches(value::get);
            }
            if (value.isArray()) {
                for (JsonNode element : value) {
                    if (element.isObject() && policy.matches(element::get)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    private static Node compileNode(JsonNode object, FilterPolicyScope scope, int depth) throws FilterPolicyException {
        if (depth > MAX_DEPTH) {
            throw new FilterPolicyException("FilterPolicy: Filter policy is too complex");
        }
        Map<String, List<ValueRule>> leaves = new LinkedHashMap<>();
        Map<String, Node> nested = new LinkedHashMap<>();
        List<Node> anyOf = new ArrayList<>();
        for (var it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.equals("$or")) {
                if (!value.isArray() || value.size() < 2) {
                    throw new FilterPolicyException("FilterPolicy: Or condition must be an array of at least two objects");
                }
                for (JsonNode alt : value) {
                    if (!alt.isObject() || alt.isEmpty()) {
                        throw new FilterPolicyException("FilterPolicy: Or condition must be an array of at least two objects");
                    }
                    anyOf.add(compileNode(alt, scope, depth + 1));
                }
            } else if (value.isArray()) {
                leaves.put(key, compileRules(value));
            } else if (value.isObject()) {
                if (scope == FilterPolicyScope.MessageAttributes) {
                    throw new FilterPolicyException(
                            "Filter policy scope MessageAttributes does not support nested filter policy");
                }
                if (value.isEmpty()) {
                    throw new FilterPolicyException("FilterPolicy: Empty objects are not allowed");
                }
                nested.put(key, compileNode(value, scope, depth + 1));
            } else {
                throw new FilterPolicyException("FilterPolicy: \"" + key + "\" must be an object or an array");
            }
        }
        return new Node(leaves, nested, anyOf);
    }

    private static List<ValueRule> compileRules(JsonNode list) throws FilterPolicyException {
        if (list.isEmpty()) {
            throw new FilterPolicyException("FilterPolicy: Empty arrays are not allowed");
        }
        List<ValueRule> rules = new ArrayList<>();
        for (JsonNode element : list) {
            rules.add(compileRule(element));
        }
        return rules;
    }

    private static ValueRule compileRule(JsonNode rule) throws FilterPolicyException {
        if (rule.isTextual() || rule.isBoolean() || rule.isNull()) {
            return new ValueRule.Literal(rule);
        }
        if (rule.isNumber()) {
            checkNumberRange(rule);
            return new ValueRule.Literal(rule);
        }
        if (!rule.isObject()) {
            throw new FilterPolicyException("FilterPolicy: Match value must be String, number, true, false, or null");
        }
        if (rule.size() != 1) {
            throw new FilterPolicyException("FilterPolicy: Only one key allowed in match expression");
        }
        Map.Entry<String, JsonNode> op = rule.fields().next();
        String name = op.getKey();
        JsonNode arg = op.getValue();
        switch (name) {
            case "prefix", "suffix" -> {
                if (!arg.isTextual()) {
                    throw new FilterPolicyException("FilterPolicy: " + name + " match pattern must be a string");
                }
                return new ValueRule.Affix(name.equals("prefix"), arg.asText(), false);
            }
            case "equals-ignore-case" -> {
                if (!arg.isTextual()) {
                    throw new FilterPolicyException("FilterPolicy: equals-ignore-case match pattern must be a string");
                }
                return new ValueRule.IgnoreCase(arg.asText());
            }
            case "exists" -> {
                if (!arg.isBoolean()) {
                    throw new FilterPolicyException("FilterPolicy: exists match pattern must be either true or false.");
                }
                return new ValueRule.Exists(arg.asBoolean());
            }
            case "cidr" -> {
                if (!arg.isTextual()) {
                    throw new FilterPolicyException("FilterPolicy: cidr match pattern must be a string");
                }
                return Cidr.compile(arg.asText());
            }
            case "numeric" -> {
                return numeric(arg);
            }
            case "anything-but" -> {
                return anythingBut(arg);
            }
            default -> throw new FilterPolicyException("FilterPolicy: Unrecognized match type " + name);
        }
    }

    private static ValueRule anythingBut(JsonNode arg) throws FilterPolicyException {
        List<ValueRule> excluded = new ArrayList<>();
        if (arg.isTextual() || arg.isNumber()) {
            excluded.add(new ValueRule.Literal(arg));
        } else if (arg.isArray()) {
            if (arg.isEmpty()) {
                throw new FilterPolicyException("FilterPolicy: Empty arrays are not allowed");
            }
            for (JsonNode v : arg) {
                if (!(v.isTextual() || v.isNumber())) {
                    throw new FilterPolicyException("FilterPolicy: Inside anything but list, "
                            + kind(v) + " is not supported.");
                }
                excluded.add(new ValueRule.Literal(v));
            }
        } else if (arg.isObject()) {
            if (arg.size() != 1) {
                throw new FilterPolicyException("FilterPolicy: Only one key allowed in match expression");
            }
            String inner = arg.fieldNames().next();
            if (!inner.equals("prefix")) {
                throw new FilterPolicyException("FilterPolicy: Unsupported anything-but pattern: " + inner);
            }
            JsonNode text = arg.get(inner);
            if (!text.isTextual()) {
                throw new FilterPolicyException("FilterPolicy: prefix match pattern must be a string");
            }
            excluded.add(new ValueRule.Affix(true, text.asText(), false));
        } else {
            throw new FilterPolicyException("FilterPolicy: Unsupported anything-but pattern: " + kind(arg));
        }
        return new ValueRule.AnythingBut(excluded);
    }

    private static String kind(JsonNode v) {
        if (v.isNull()) {
            return "null";
        }
        if (v.isBoolean()) {
            return "boolean";
        }
        if (v.isArray()) {
            return "array";
        }
        return v.isObject() ? "object" : "value";
    }

    /** {@code [op, n]} or a range {@code [>|>=, low, <|<=, high]}; {@code =} only alone. */
    private static ValueRule numeric(JsonNode arg) throws FilterPolicyException {
        if (!arg.isArray() || arg.isEmpty()) {
            throw new FilterPolicyException("FilterPolicy: Value of numeric must be an array.");
        }
        if (arg.size() > 4) {
            throw new FilterPolicyException("FilterPolicy: Too many elements in numeric expression");
        }
        List<String> ops = new ArrayList<>();
        List<Double> bounds = new ArrayList<>();
        for (int i = 0; i < arg.size(); i += 2) {
            JsonNode op = arg.get(i);
            String o = op.isTextual() ? op.asText() : op.toString();
            if (!(o.equals("=") || o.equals("<") || o.equals("<=") || o.equals(">") || o.equals(">="))) {
                throw new FilterPolicyException("FilterPolicy: Unrecognized numeric range operator: " + o);
            }
            if (i + 1 >= arg.size() || !arg.get(i + 1).isNumber()) {
                throw new FilterPolicyException("FilterPolicy: Value of " + o + " must be numeric");
            }
            checkNumberRange(arg.get(i + 1));
            ops.add(o);
            bounds.add(arg.get(i + 1).asDouble());
        }
        if (ops.size() == 2) {
            String low = ops.get(0);
            String high = ops.get(1);
            if (!(low.startsWith(">") && high.startsWith("<"))) {
                throw new FilterPolicyException("FilterPolicy: Bad numeric range operator: " + high);
            }
            if (bounds.get(0) >= bounds.get(1)) {
                throw new FilterPolicyException("FilterPolicy: Bottom must be less than top");
            }
        }
        String[] o = ops.toArray(new String[0]);
        double[] b = new double[bounds.size()];
        for (int i = 0; i < b.length; i++) {
            b[i] = bounds.get(i);
        }
        return new ValueRule.Numeric(o, b);
    }

    private static void checkNumberRange(JsonNode number) throws FilterPolicyException {
        if (Math.abs(number.asDouble()) > NUMERIC_LIMIT) {
            throw new FilterPolicyException("FilterPolicy: Numeric value must be between -1.0E9 and 1.0E9 inclusive");
        }
    }
}
