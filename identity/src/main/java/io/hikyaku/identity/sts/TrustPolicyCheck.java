package io.hikyaku.identity.sts;

import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Role;
import io.hikyaku.policy.Decision;
import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyEvaluator;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.policy.PrincipalType;
import io.hikyaku.policy.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a caller may assume a role, evaluated by the IAM policy evaluator as AWS does: the role's
 * trust policy must allow the operation's action ({@code sts:AssumeRole}, from {@link StsOperations}) for the caller (also within the role's account), and
 * the caller's side must allow it too (an account root implicitly; a user or role session through its
 * identity policies, and its session policy if it has one). Any explicit Deny wins.
 */
final class TrustPolicyCheck {

    private TrustPolicyCheck() {}

    /** @return null when allowed, else STS's AccessDenied text ({@code User: <arn> is not authorized to perform: sts:AssumeRole on resource: <role>}) */
    static String denial(String action, Role role, Principal caller, Map<String, List<String>> conditionKeys) {
        RequestContext c = context(action, role, caller, conditionKeys);
        if (role.trustPolicy() == null) {
            return notAuthorized(c);
        }
        try {
            Policy trust = PolicyCache.shared().get(role.trustPolicy(), PolicyKind.TRUST);
            List<Policy> identity = new ArrayList<>();
            for (String document : caller.identityPolicies().values()) {
                identity.add(PolicyCache.shared().get(document, PolicyKind.IDENTITY));
            }
            Policy session = caller.sessionPolicy() == null ? null : PolicyCache.shared().get(caller.sessionPolicy(), PolicyKind.SESSION);
            Decision d = PolicyEvaluator.evaluate(c, identity, trust, session);
            return d.allowed() ? null : notAuthorized(c); // STS words it without the reason SQS appends
        } catch (PolicyException invalid) {
            return notAuthorized(c); // a policy that does not parse allows nothing
        }
    }

    private static RequestContext context(String action, Role role, Principal caller, Map<String, List<String>> conditionKeys) {
        if (caller.isAnonymous()) {
            return RequestContext.anonymous(action, role.arn(), role.accountId(), conditionKeys);
        }
        PrincipalType type = switch (caller.type()) {
            case ACCOUNT -> PrincipalType.ACCOUNT;
            case USER -> PrincipalType.USER;
            case ASSUMED_ROLE -> PrincipalType.ASSUMED_ROLE;
            case ANONYMOUS -> PrincipalType.ANONYMOUS;
        };
        return new RequestContext(caller.arn(), caller.accountId(), type, caller.userId(), caller.userName(), action,
                role.arn(), role.accountId(), conditionKeys);
    }

    private static String notAuthorized(RequestContext c) {
        return "User: " + (c.isAnonymous() ? "anonymous" : c.principalArn()) + " is not authorized to perform: "
                + c.action() + " on resource: " + c.resourceArn();
    }
}
