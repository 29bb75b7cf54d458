package io.hikyaku.filter;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One element of a pattern's value list: a literal (string, number, boolean, null) or one operator
 * object ({@code prefix}, {@code suffix}, {@code equals-ignore-case}, {@code anything-but},
 * {@code numeric}, {@code exists}). A list matches when any of its rules matches.
 */
abstract class ValueRule {

    /** @param value the event's value at this key, or null when the key is absent */
    abstract boolean matches(JsonNode value);

    /** {@code exists:false} is the one rule an absent key can satisfy. */
    boolean matchesAbsent() {
        return false;
    }

    static List<ValueRule> compileList(String path, JsonNode list) throws InvalidPatternException {
        List<ValueRule> rules = new ArrayList<>();
        for (JsonNode element : list) {
            rules.add(compile(path, element));
        }
        return rules;
    }

    static ValueRule compile(String path, JsonNode rule) throws InvalidPatternException {
        if (rule.isTextual() || rule.isNumber() || rule.isBoolean() || rule.isNull()) {
            return new Literal(rule);
        }
        if (!rule.isObject() || rule.size() != 1) {
            throw new InvalidPatternException(path + ": a rule is a value or an object with one operator");
        }
        Map.Entry<String, JsonNode> op = rule.fields().next();
        JsonNode arg = op.getValue();
        switch (op.getKey()) {
            case "prefix":
            case "suffix": {
                boolean prefix = op.getKey().equals("prefix");
                if (arg.isTextual()) {
                    return new Affix(prefix, arg.asText(), false);
                }
                if (arg.isObject() && arg.size() == 1 && arg.path("equals-ignore-case").isTextual()) {
                    return new Affix(prefix, arg.path("equals-ignore-case").asText(), true);
                }
                throw new InvalidPatternException(path + ": " + op.getKey() + " takes a string");
            }
            case "equals-ignore-case":
                if (!arg.isTextual()) {
                    throw new InvalidPatternException(path + ": equals-ignore-case takes a string");
                }
                return new IgnoreCase(arg.asText());
            case "anything-but":
                return new AnythingBut(anythingBut(path, arg));
            case "numeric":
                return Numeric.compile(path, arg);
            case "exists":
                if (!arg.isBoolean()) {
                    throw new InvalidPatternException(path + ": exists takes true or false");
                }
                return new Exists(arg.asBoolean());
            default:
                throw new InvalidPatternException(path + ": unknown operator " + op.getKey());
        }
    }

    private static List<ValueRule> anythingBut(String path, JsonNode arg) throws InvalidPatternException {
        List<ValueRule> excluded = new ArrayList<>();
        if (arg.isTextual() || arg.isNumber()) {
            excluded.add(new Literal(arg));
        } else if (arg.isArray() && arg.size() > 0) {
            for (JsonNode v : arg) {
                if (!(v.isTextual() || v.isNumber())) {
                    throw new InvalidPatternException(path + ": anything-but lists strings or numbers");
                }
                excluded.add(new Literal(v));
            }
        } else if (arg.isObject() && arg.size() == 1) {
            String key = arg.fieldNames().next();
            if (!(key.equals("prefix") || key.equals("suffix") || key.equals("equals-ignore-case"))) {
                throw new InvalidPatternException(path + ": anything-but takes prefix, suffix or equals-ignore-case");
            }
            JsonNode inner = arg.get(key);
            if (key.equals("equals-ignore-case") && inner.isArray()) {
                for (JsonNode v : inner) {
                    if (!v.isTextual()) {
                        throw new InvalidPatternException(path + ": equals-ignore-case takes strings");
                    }
                    excluded.add(new IgnoreCase(v.asText()));
                }
            } else {
                excluded.add(compile(path, arg));
            }
        } else {
            throw new InvalidPatternException(path + ": anything-but takes a value, a list or one operator");
        }
        return excluded;
    }

    /** Matches a value, or any element of an array value (a JSON array in a body matches element-wise). */
    static boolean anyMatches(List<ValueRule> rules, JsonNode value) {
        if (value == null || value.isMissingNode()) {
            for (ValueRule r : rules) {
                if (r.matchesAbsent()) {
                    return true;
                }
            }
            return false;
        }
        if (value.isArray()) {
            for (Iterator<JsonNode> it = value.elements(); it.hasNext(); ) {
                JsonNode element = it.next();
                for (ValueRule r : rules) {
                    if (r.matches(element)) {
                        return true;
                    }
                }
            }
            return false;
        }
        for (ValueRule r : rules) {
            if (r.matches(value)) {
                return true;
            }
        }
        return false;
    }

    static final class Literal extends ValueRule {
        private final JsonNode expected;

        Literal(JsonNode expected) {
            this.expected = expected;
        }

        @Override
        boolean matches(JsonNode value) {
            if (expected.isNumber()) {
                return value.isNumber() && value.asDouble() == expected.asDouble();
            }
            if (expected.isNull()) {
                return value.isNull();
            }
            if (expected.isBoolean()) {
                return value.isBoolean() && value.asBoolean() == expected.asBoolean();
            }
            return value.isTextual() && value.asText().equals(expected.asText());
        }
    }

    static final class Affix extends ValueRule {
        private final boolean prefix;
        private final String text;
        private final boolean ignoreCase;

        Affix(boolean prefix, String text, boolean ignoreCase) {
            this.prefix = prefix;
            this.ignoreCase = ignoreCase;
            this.text = ignoreCase ? text.toLowerCase(Locale.ROOT) : text;
        }

        @Override
        boolean matches(JsonNode value) {
            if (!value.isTextual()) {
                return false;
            }
            String s = ignoreCase ? value.asText().toLowerCase(Locale.ROOT) : value.asText();
            return prefix ? s.startsWith(text) : s.endsWith(text);
        }
    }

    static final class IgnoreCase extends ValueRule {
        private final String text;

        IgnoreCase(String text) {
            this.text = text;
        }

        @Override
        boolean matches(JsonNode value) {
            return value.isTextual() && value.asText().equalsIgnoreCase(text);
        }
    }

    /** Matches a present value that none of the excluded rules match. */
    static final class AnythingBut extends ValueRule {
        private final List<ValueRule> excluded;

        AnythingBut(List<ValueRule> excluded) {
            this.excluded = excluded;
        }

        @Override
        boolean matches(JsonNode value) {
            for (ValueRule r : excluded) {
                if (r.matches(value)) {
                    return false;
                }
            }
            return true;
        }
    }

    static final class Exists extends ValueRule {
        private final boolean exists;

        Exists(boolean exists) {
            this.exists = exists;
        }

        @Override
        boolean matches(JsonNode value) {
            return exists;
        }

        @Override
        boolean matchesAbsent() {
            return !exists;
        }
    }

    /** {@code numeric: [op, n]} or {@code [op, n, op, n]} with =, <, <=, >, >= (a range: a lower then an upper bound). */
    static final class Numeric extends ValueRule {
        private final String[] ops;
        private final double[] bounds;

        Numeric(String[] ops, double[] bounds) {
            this.ops = ops;
            this.bounds = bounds;
        }

        static Numeric compile(String path, JsonNode arg) throws InvalidPatternException {
            if (!arg.isArray() || (arg.size() != 2 && arg.size() != 4)) {
                throw new InvalidPatternException(path + ": numeric takes [op, number] or [op, number, op, number]");
            }
            int n = arg.size() / 2;
            String[] ops = new String[n];
            double[] bounds = new double[n];
            for (int i = 0; i < n; i++) {
                JsonNode op = arg.get(2 * i);
                JsonNode bound = arg.get(2 * i + 1);
                if (!op.isTextual() || !bound.isNumber()
                        || !(op.asText().equals("=") || op.asText().equals("<") || op.asText().equals("<=")
                        || op.asText().equals(">") || op.asText().equals(">="))) {
                    throw new InvalidPatternException(path + ": numeric takes an operator (=, <, <=, >, >=) then a number");
                }
                ops[i] = op.asText();
                bounds[i] = bound.asDouble();
            }
            if (n == 2 && !(ops[0].startsWith(">") && ops[1].startsWith("<") && bounds[0] < bounds[1])) {
                throw new InvalidPatternException(path + ": a numeric range is a lower bound (> or >=) then a greater upper bound (< or <=)");
            }
            return new Numeric(ops, bounds);
        }

        @Override
        boolean matches(JsonNode value) {
            if (!value.isNumber()) {
                return false;
            }
            double v = value.asDouble();
            for (int i = 0; i < ops.length; i++) {
                double b = bounds[i];
                boolean ok = switch (ops[i]) {
                    case "=" -> v == b;
                    case "<" -> v < b;
                    case "<=" -> v <= b;
                    case ">" -> v > b;
                    default -> v >= b;
                };
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
    }
}
