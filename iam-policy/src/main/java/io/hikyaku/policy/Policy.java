package io.hikyaku.policy;

import java.util.List;

/**
 * An IAM policy document parsed once into an immutable model: {@code Version}
 * ({@code 2012-10-17}, or {@code 2008-10-17} / absent, where {@code ${...}} is literal text),
 * {@code Id} and its statements. Parse with {@link #parse(String, PolicyKind)}; evaluate with
 * {@link PolicyEvaluator}. Thread-safe.
 */
public final class Policy {
    public static final String VERSION_2012 = "2012-10-17";
    public static final String VERSION_2008 = "2008-10-17";

    private final PolicyKind kind;
    private final String version;
    private final String id;
    private final List<Statement> statements;
    private final int fixedWeight;

    Policy(PolicyKind kind, String version, String id, List<Statement> statements) {
        this.kind = kind;
        this.version = version;
        this.id = id;
        this.statements = List.copyOf(statements);
        long weight = 0;
        for (Statement s : this.statements) {
            int w = s.fixedWeight();
            if (w < 0) {
                weight = -1;
                break;
            }
            weight += w;
        }
        this.fixedWeight = (int) Math.min(Integer.MAX_VALUE, weight);
    }

    /** Parses and validates {@code json} for use as a policy of the given kind; the exception says exactly what is wrong. */
    public static Policy parse(String json, PolicyKind kind) throws PolicyException {
        return PolicyParser.parse(json, kind);
    }

    public PolicyKind kind() {
        return kind;
    }

    /** The Version as written, or null when absent (treated as 2008-10-17). */
    public String version() {
        return version;
    }

    public String id() {
        return id;
    }

    public List<Statement> statements() {
        return statements;
    }

    /**
     * A bound on what evaluating this policy costs, when its outcome depends only on the caller, the
     * action and the resource: the total length of its Action, Resource and Principal patterns (each
     * principal counted as 64), matched in linear time against strings the server builds (an IAM
     * action, a queue ARN). -1 when any statement has a Condition or a policy variable: then evaluation
     * reads the request's condition keys, whose values (a User-Agent, tags) the client chooses.
     */
    public int fixedWeight() {
        return fixedWeight;
    }

    /** Whether evaluating this policy reads the request's condition keys ({@link #fixedWeight} is -1). */
    public boolean readsRequestKeys() {
        return fixedWeight < 0;
    }

    /** Whether a Deny statement applies to the request. */
    boolean denies(RequestContext c) {
        for (Statement s : statements) {
            if (s.effect() == Effect.DENY && s.principalMatch(c) != Principals.Match.NONE && s.appliesTo(c)) {
                return true;
            }
        }
        return false;
    }

    /** The best principal match among the Allow statements that apply (NONE: nothing allows). */
    Principals.Match allows(RequestContext c) {
        Principals.Match best = Principals.Match.NONE;
        for (Statement s : statements) {
            if (s.effect() != Effect.ALLOW) {
                continue;
            }
            Principals.Match m = s.principalMatch(c);
            if (m.compareTo(best) > 0 && s.appliesTo(c)) {
                best = m;
                if (best == Principals.Match.EXACT) {
                    break;
                }
            }
        }
        return best;
    }
}
