package io.hikyaku.policy;

import java.util.List;

/**
 * IAM's evaluation logic for one request, as AWS applies it to SQS:
 * <ol>
 * <li>an applicable Deny in any policy (identity, session, resource) denies;</li>
 * <li>an owner-only SQS action asked from outside the queue's account is denied (it cannot be granted);</li>
 * <li>same account: the account root is allowed; otherwise an identity policy OR the resource policy must allow,
 *     where a resource-policy grant to the whole account only delegates (the identity side must still allow);</li>
 * <li>another account: the caller's identity policy (root: implicitly) AND the resource policy must allow;</li>
 * <li>a role trust policy (PolicyKind.TRUST) must allow even within the role's account;</li>
 * <li>anonymous and service callers have no identity side: only the resource policy can allow them
 *     (anonymous callers only through {@code "*"});</li>
 * <li>a session policy (STS AssumeRole) intersects: the identity side and any resource-policy allow that
 *     does not name the session's own ARN must also be allowed by it;</li>
 * <li>otherwise: implicit deny.</li>
 * </ol>
 * Pure and thread-safe; it reads no clock (time keys come in the context).
 */
public final class PolicyEvaluator {

    private PolicyEvaluator() {}

    /**
     * @param identityPolicies the caller's identity policies (user or role policies; empty for root, anonymous)
     * @param resourcePolicy   the queue's Policy, or null
     * @param sessionPolicy    the session policy of an assumed-role session, or null
     */
    public static Decision evaluate(RequestContext c, List<Policy> identityPolicies, Policy resourcePolicy,
                                    Policy sessionPolicy) {
        boolean hasIdentitySide = !c.isAnonymous() && c.principalType() != PrincipalType.SERVICE;
        List<Policy> identity = !hasIdentitySide || identityPolicies == null ? List.of() : identityPolicies;
        Policy session = hasIdentitySide ? sessionPolicy : null;

        for (Policy p : identity) {
            if (p != null && p.denies(c)) {
                return Decision.deny(Decision.Reason.EXPLICIT_DENY_IN_IDENTITY_POLICY);
            }
        }
        if (session != null && session.denies(c)) {
            return Decision.deny(Decision.Reason.EXPLICIT_DENY_IN_SESSION_POLICY);
        }
        if (resourcePolicy != null && resourcePolicy.denies(c)) {
            return Decision.deny(Decision.Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY);
        }

        boolean sameAccount = hasIdentitySide && c.account() != null && c.account().equals(c.resourceAccount());
        if (!sameAccount && SqsActions.isOwnerOnly(c.action())) {
            return Decision.deny(Decision.Reason.OWNER_ONLY_ACTION);
        }
        boolean trust = resourcePolicy != null && resourcePolicy.kind() == PolicyKind.TRUST;
        boolean root = c.principalType() == PrincipalType.ACCOUNT;
        if (sameAccount && root && !trust) {
            return Decision.allow(Decision.Reason.ALLOWED_AS_ACCOUNT_ROOT);
        }

        Principals.Match resourceMatch = resourcePolicy == null ? Principals.Match.NONE : resourcePolicy.allows(c);
        if (!hasIdentitySide) {
            return resourceMatch != Principals.Match.NONE ? Decision.allow(Decision.Reason.ALLOWED_BY_RESOURCE_POLICY)
                    : Decision.deny(Decision.Reason.NO_RESOURCE_POLICY_ALLOWS);
        }

        boolean identityAllows = root || anyAllows(identity, c);
        boolean sessionAllows = session == null || session.allows(c) != Principals.Match.NONE;
        boolean identityEffective = identityAllows && sessionAllows;
        // a grant naming the caller (or "*", its role, a service) suffices on its own in the same account;
        // a grant to the whole account only delegates: the identity side must allow too
        boolean resourceGrantsDirectly = resourceMatch == Principals.Match.EXACT
                || (resourceMatch == Principals.Match.GENERAL && sessionAllows);

        if (sameAccount && !trust) {
            if (identityEffective) {
                return Decision.allow(Decision.Reason.ALLOWED_BY_IDENTITY_POLICY);
            }
            if (resourceGrantsDirectly) {
                return Decision.allow(Decision.Reason.ALLOWED_BY_RESOURCE_POLICY);
            }
            boolean blockedBySession = !sessionAllows && (identityAllows || resourceMatch.compareTo(Principals.Match.GENERAL) >= 0);
            return Decision.deny(blockedBySession ? Decision.Reason.NO_SESSION_POLICY_ALLOWS
                    : Decision.Reason.NO_IDENTITY_POLICY_ALLOWS);
        }
        if (sameAccount && resourceGrantsDirectly) {
            // a role trust policy naming the caller: enough within the role's account
            return Decision.allow(Decision.Reason.ALLOWED_BY_RESOURCE_POLICY);
        }
        if (resourceMatch == Principals.Match.NONE) {
            return Decision.deny(Decision.Reason.NO_RESOURCE_POLICY_ALLOWS);
        }
        if (!identityEffective) {
            return Decision.deny(identityAllows ? Decision.Reason.NO_SESSION_POLICY_ALLOWS
                    : Decision.Reason.NO_IDENTITY_POLICY_ALLOWS);
        }
        return Decision.allow(Decision.Reason.ALLOWED_BY_RESOURCE_POLICY);
    }

    private static boolean anyAllows(List<Policy> policies, RequestContext c) {
        for (Policy p : policies) {
            if (p != null && p.allows(c) != Principals.Match.NONE) {
                return true;
            }
        }
        return false;
    }
}
