package io.hikyaku.policy;

import java.util.List;

/**
 * One operator applied to one condition key with its policy values, e.g.
 * {@code "ForAnyValue:StringLikeIfExists": {"aws:TagKeys": ["team*", "env"]}}. Several values are
 * OR-ed (a negated operator holds when none matches). A key the request lacks makes the condition
 * false, except for negated operators and ForAllValues (true), {@code ...IfExists} (true) and Null
 * (which tests exactly that). With ForAnyValue at least one request value, with ForAllValues every
 * request value must match; without a qualifier a multi-valued key behaves like ForAnyValue.
 */
public final class Condition {

    public enum Qualifier { NONE, FOR_ANY_VALUE, FOR_ALL_VALUES }

    private final String operator;
    private final Qualifier qualifier;
    private final boolean ifExists;
    private final String key;
    private final String normalizedKey;
    private final List<String> values;
    private final ConditionOperator op;
    private final List<ConditionOperator.Value> compiled;

    Condition(String operator, Qualifier qualifier, boolean ifExists, String key, List<String> values,
              ConditionOperator op, List<ConditionOperator.Value> compiled) {
        this.operator = operator;
        this.qualifier = qualifier;
        this.ifExists = ifExists;
        this.key = key;
        this.normalizedKey = ConditionKeys.normalize(key);
        this.values = List.copyOf(values);
        this.op = op;
        this.compiled = List.copyOf(compiled);
    }

    /** The operator as written, e.g. {@code ForAnyValue:StringLikeIfExists}. */
    public String operator() {
        return operator;
    }

    public Qualifier qualifier() {
        return qualifier;
    }

    public boolean ifExists() {
        return ifExists;
    }

    /** The condition key as written (matched case-insensitively). */
    public String key() {
        return key;
    }

    public List<String> values() {
        return values;
    }

    /**
     * @param inDeny whether the statement denies: a request value longer than
     *               {@link RequestContext#MAX_VALUE_LENGTH} is not compared (that would let a client make
     *               every request cost what it likes); the condition then fails closed: it holds in a Deny
     *               statement and fails in an Allow statement.
     */
    boolean holds(RequestContext context, boolean inDeny) {
        List<String> requestValues = context.normalizedValues(normalizedKey);
        boolean missing = requestValues == null || requestValues.isEmpty();
        if (!missing && op != ConditionOperator.NULL) {
            for (String r : requestValues) {
                if (r.length() > RequestContext.MAX_VALUE_LENGTH) {
                    return inDeny;
                }
            }
        }
        if (op == ConditionOperator.NULL) {
            for (String v : values) {
                if (v.equalsIgnoreCase("true") == missing) {
                    return true;
                }
            }
            return false;
        }
        if (missing) {
            if (ifExists) {
                return true;
            }
            return switch (qualifier) {
                case FOR_ALL_VALUES -> true;
                case FOR_ANY_VALUE -> false;
                case NONE -> op.negated;
            };
        }
        if (qualifier == Qualifier.FOR_ALL_VALUES) {
            for (String r : requestValues) {
                if (anyMatch(r, context) == op.negated) {
                    return false;
                }
            }
            return true;
        }
        if (qualifier == Qualifier.FOR_ANY_VALUE || !op.negated) {
            for (String r : requestValues) {
                if (anyMatch(r, context) != op.negated) {
                    return true;
                }
            }
            return false;
        }
        // a negated operator without qualifier: no request value may match any policy value
        for (String r : requestValues) {
            if (anyMatch(r, context)) {
                return false;
            }
        }
        return true;
    }

    private boolean anyMatch(String requestValue, RequestContext context) {
        for (ConditionOperator.Value v : compiled) {
            if (v.test(requestValue, context)) {
                return true;
            }
        }
        return false;
    }
}
