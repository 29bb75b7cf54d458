package io.hikyaku.policy;

import java.util.List;

/**
 * One parsed statement. It applies to a request when its principal element matches the caller
 * (resource and trust policies only), an Action (or no NotAction) matches the action, a Resource
 * (or no NotResource) matches the resource, and every condition holds.
 */
public final class Statement {
    private final String sid;
    private final Effect effect;
    private final Principals principals;
    private final boolean notPrincipal;
    private final List<Wildcard> actions;
    private final boolean notAction;
    private final List<Wildcard> resources;
    private final boolean notResource;
    private final List<Condition> conditions;

    Statement(String sid, Effect effect, Principals principals, boolean notPrincipal, List<Wildcard> actions,
              boolean notAction, List<Wildcard> resources, boolean notResource, List<Condition> conditions) {
        this.sid = sid;
        this.effect = effect;
        this.principals = principals;
        this.notPrincipal = notPrincipal;
        this.actions = List.copyOf(actions);
        this.notAction = notAction;
        this.resources = resources == null ? null : List.copyOf(resources);
        this.notResource = notResource;
        this.conditions = List.copyOf(conditions);
    }

    /** The Sid, or null. */
    public String sid() {
        return sid;
    }

    public Effect effect() {
        return effect;
    }

    public List<String> actions() {
        return actions.stream().map(Wildcard::source).toList();
    }

    public boolean isNotAction() {
        return notAction;
    }

    /** The Resource / NotResource patterns, empty when the statement has none (trust policies). */
    public List<String> resources() {
        return resources == null ? List.of() : resources.stream().map(Wildcard::source).toList();
    }

    public boolean isNotResource() {
        return notResource;
    }

    public boolean isNotPrincipal() {
        return notPrincipal;
    }

    public List<Condition> conditions() {
        return conditions;
    }

    /**
     * What evaluating this statement costs when that depends only on the caller, the action and the
     * resource (no Condition, no policy variable): the total length of its patterns, plus
     * {@link #PRINCIPAL_WEIGHT} per principal; -1 when it reads the request's condition keys (its cost
     * then depends on values the client chose, such as a User-Agent).
     */
    int fixedWeight() {
        if (!conditions.isEmpty()) {
            return -1;
        }
        long weight = (long) principalCount() * PRINCIPAL_WEIGHT;
        for (Wildcard w : actions) {
            weight += w.source().length();
        }
        if (resources != null) {
            for (Wildcard w : resources) {
                if (w.hasVariables()) {
                    return -1;
                }
                weight += w.source().length();
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, weight);
    }

    /** A principal entry's share of {@link #fixedWeight}: about the length of an ARN it is compared with. */
    static final int PRINCIPAL_WEIGHT = 64;

    int principalCount() {
        return principals == null ? 0 : principals.count();
    }

    /** How the statement's principal element matches the caller (GENERAL when it has none: identity policies). */
    Principals.Match principalMatch(RequestContext c) {
        if (principals == null) {
            return Principals.Match.GENERAL;
        }
        if (notPrincipal) {
            return principals.namesEveryFacet(c) ? Principals.Match.NONE : Principals.Match.GENERAL;
        }
        return principals.match(c);
    }

    /** Action, resource and conditions (not the principal). */
    boolean appliesTo(RequestContext c) {
        return actionMatches(c.action()) && resourceMatches(c) && conditionsHold(c);
    }

    private boolean actionMatches(String action) {
        boolean any = false;
        for (Wildcard w : actions) {
            if (w.matches(action, null, true)) {
                any = true;
                break;
            }
        }
        return any != notAction;
    }

    private boolean resourceMatches(RequestContext c) {
        if (resources == null) {
            return true;
        }
        boolean any = false;
        for (Wildcard w : resources) {
            if (resourceMatches(w, c)) {
                any = true;
                break;
            }
        }
        return any != notResource;
    }

    /**
     * ARN patterns match the resource ARN; a legacy SQS resource {@code 123456789012/queue} (older
     * queue policies) matches the account and name parts of a queue ARN.
     */
    private static boolean resourceMatches(Wildcard w, RequestContext c) {
        String arn = c.resourceArn();
        if (w.source().startsWith("arn:") || w.source().equals("*")) {
            return w.matches(arn, c, false);
        }
        String[] parts = arn.split(":", 6);
        return parts.length == 6 && parts[2].equals("sqs") && w.matches(parts[4] + "/" + parts[5], c, false);
    }

    private boolean conditionsHold(RequestContext c) {
        for (Condition condition : conditions) {
            if (!condition.holds(c, effect == Effect.DENY)) {
                return false;
            }
        }
        return true;
    }
}
