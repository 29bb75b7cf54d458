package io.hikyaku.policy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every IAM condition operator (without the {@code IfExists} suffix and the {@code ForAnyValue:} /
 * {@code ForAllValues:} qualifiers, which {@link Condition} handles). A negated operator
 * (StringNotEquals, NotIpAddress, ...) is its positive form with the result inverted: it holds when
 * no policy value matches.
 */
enum ConditionOperator {
    STRING_EQUALS("StringEquals", Type.STRING, Compare.EQ, false),
    STRING_NOT_EQUALS("StringNotEquals", Type.STRING, Compare.EQ, true),
    STRING_EQUALS_IGNORE_CASE("StringEqualsIgnoreCase", Type.STRING_IGNORE_CASE, Compare.EQ, false),
    STRING_NOT_EQUALS_IGNORE_CASE("StringNotEqualsIgnoreCase", Type.STRING_IGNORE_CASE, Compare.EQ, true),
    STRING_LIKE("StringLike", Type.STRING_LIKE, Compare.EQ, false),
    STRING_NOT_LIKE("StringNotLike", Type.STRING_LIKE, Compare.EQ, true),
    NUMERIC_EQUALS("NumericEquals", Type.NUMERIC, Compare.EQ, false),
    NUMERIC_NOT_EQUALS("NumericNotEquals", Type.NUMERIC, Compare.EQ, true),
    NUMERIC_LESS_THAN("NumericLessThan", Type.NUMERIC, Compare.LT, false),
    NUMERIC_LESS_THAN_EQUALS("NumericLessThanEquals", Type.NUMERIC, Compare.LE, false),
    NUMERIC_GREATER_THAN("NumericGreaterThan", Type.NUMERIC, Compare.GT, false),
    NUMERIC_GREATER_THAN_EQUALS("NumericGreaterThanEquals", Type.NUMERIC, Compare.GE, false),
    DATE_EQUALS("DateEquals", Type.DATE, Compare.EQ, false),
    DATE_NOT_EQUALS("DateNotEquals", Type.DATE, Compare.EQ, true),
    DATE_LESS_THAN("DateLessThan", Type.DATE, Compare.LT, false),
    DATE_LESS_THAN_EQUALS("DateLessThanEquals", Type.DATE, Compare.LE, false),
    DATE_GREATER_THAN("DateGreaterThan", Type.DATE, Compare.GT, false),
    DATE_GREATER_THAN_EQUALS("DateGreaterThanEquals", Type.DATE, Compare.GE, false),
    BOOL("Bool", Type.BOOL, Compare.EQ, false),
    BINARY_EQUALS("BinaryEquals", Type.BINARY, Compare.EQ, false),
    IP_ADDRESS("IpAddress", Type.IP, Compare.EQ, false),
    NOT_IP_ADDRESS("NotIpAddress", Type.IP, Compare.EQ, true),
    ARN_EQUALS("ArnEquals", Type.ARN, Compare.EQ, false),
    ARN_LIKE("ArnLike", Type.ARN, Compare.EQ, false),
    ARN_NOT_EQUALS("ArnNotEquals", Type.ARN, Compare.EQ, true),
    ARN_NOT_LIKE("ArnNotLike", Type.ARN, Compare.EQ, true),
    NULL("Null", Type.NULL, Compare.EQ, false);

    enum Type { STRING, STRING_IGNORE_CASE, STRING_LIKE, NUMERIC, DATE, BOOL, BINARY, IP, ARN, NULL }

    enum Compare { EQ, LT, LE, GT, GE }

    /** One policy value, compiled for its operator; tests one request value (positive sense). */
    interface Value {
        boolean test(String requestValue, RequestContext context);
    }

    private static final Map<String, ConditionOperator> BY_NAME = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    static {
        for (ConditionOperator op : values()) {
            BY_NAME.put(op.policyName, op);
        }
    }

    final String policyName;
    final Type type;
    final Compare compare;
    final boolean negated;

    ConditionOperator(String policyName, Type type, Compare compare, boolean negated) {
        this.policyName = policyName;
        this.type = type;
        this.compare = compare;
        this.negated = negated;
    }

    /** The operator named (case-insensitively), or null. */
    static ConditionOperator named(String name) {
        return BY_NAME.get(name);
    }

    /** Compiles one policy value; a value of the wrong type for the operator is refused here, once. */
    Value compile(String policyValue, boolean variables) throws PolicyException {
        switch (type) {
            case STRING -> {
                Wildcard w = Wildcard.compile(policyValue, false, variables);
                return (r, c) -> w.matches(r, c, false);
            }
            case STRING_IGNORE_CASE -> {
                Wildcard w = Wildcard.compile(policyValue, false, variables);
                return (r, c) -> w.matches(r, c, true);
            }
            case STRING_LIKE -> {
                Wildcard w = Wildcard.compile(policyValue, true, variables);
                return (r, c) -> w.matches(r, c, false);
            }
            case NUMERIC -> {
                BigDecimal p = number(policyValue);
                if (p == null) {
                    throw invalid(policyValue, "a number");
                }
                return (r, c) -> {
                    BigDecimal v = number(r);
                    return v != null && holds(v.compareTo(p));
                };
            }
            case DATE -> {
                Instant p = PolicyDates.parse(policyValue);
                if (p == null) {
                    throw invalid(policyValue, "an ISO 8601 date or epoch seconds");
                }
                return (r, c) -> {
                    Instant v = PolicyDates.parse(r);
                    return v != null && holds(v.compareTo(p));
                };
            }
            case BOOL -> {
                if (!policyValue.equalsIgnoreCase("true") && !policyValue.equalsIgnoreCase("false")) {
                    throw invalid(policyValue, "true or false");
                }
                return (r, c) -> r.equalsIgnoreCase(policyValue);
            }
            case BINARY -> {
                byte[] p = base64(policyValue);
                if (p == null) {
                    throw invalid(policyValue, "base64");
                }
                return (r, c) -> {
                    byte[] v = base64(r);
                    return v != null && Arrays.equals(v, p);
                };
            }
            case IP -> {
                IpRange range = IpRange.parse(policyValue);
                return (r, c) -> range.contains(r);
            }
            case ARN -> {
                ArnPattern p = ArnPattern.compile(policyValue, variables);
                return p::matches;
            }
            case NULL -> {
                // Condition tests presence itself; the value only has to be a boolean
                if (!policyValue.equalsIgnoreCase("true") && !policyValue.equalsIgnoreCase("false")) {
                    throw invalid(policyValue, "true or false");
                }
                return (r, c) -> false;
            }
            default -> throw new IllegalStateException(type.name());
        }
    }

    private boolean holds(int cmp) {
        return switch (compare) {
            case EQ -> cmp == 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
        };
    }

    private PolicyException invalid(String value, String expected) {
        return new PolicyException("Condition operator " + policyName + " needs " + expected + ", not \"" + value + "\"");
    }

    private static BigDecimal number(String s) {
        String t = s.trim();
        if (t.isEmpty() || t.length() > 64) {
            return null;
        }
        try {
            return new BigDecimal(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static byte[] base64(String s) {
        try {
            return Base64.getDecoder().decode(s.trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return policyName;
    }
}
