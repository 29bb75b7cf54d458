package io.hikyaku.identity;

import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import java.util.Map;

/**
 * Checks that every policy of a set of identities (user and role policies, trust policies) is a
 * valid IAM policy, so that a config file with a broken one is refused as a whole instead of that
 * policy silently allowing nothing.
 */
public final class IdentityPolicies {

    private IdentityPolicies() {}

    /** @throws IllegalArgumentException naming the account, user or role, the policy and the fault */
    public static void check(Identities identities, String source) {
        for (Account a : identities.accounts()) {
            for (User u : a.users()) {
                checkAll(u.policies(), source + ": account " + a.id() + ", user " + u.name());
            }
            for (Role r : a.roles()) {
                String where = source + ": account " + a.id() + ", role " + r.name();
                if (r.trustPolicy() != null) {
                    checkOne(r.trustPolicy(), PolicyKind.TRUST, where + ", trustPolicy");
                }
                checkAll(r.policies(), where);
            }
        }
    }

    private static void checkAll(Map<String, String> policies, String where) {
        policies.forEach((name, document) -> checkOne(document, PolicyKind.IDENTITY, where + ", policy " + name));
    }

    private static void checkOne(String document, PolicyKind kind, String where) {
        try {
            Policy.parse(document, kind);
        } catch (PolicyException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }
}
