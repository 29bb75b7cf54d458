package io.hikyaku.identity;

import java.util.Map;

/**
 * An IAM user of a configured account.
 *
 * @param accountId the owning account
 * @param name      the user name (aws:username)
 * @param userId    the user's unique id ({@code AIDA...}, aws:userid), stable for the same account and name
 * @param policies  inline identity policies by name (JSON documents)
 */
public record User(String accountId, String name, String userId, Map<String, String> policies) {

    public User {
        policies = policies == null ? Map.of() : Map.copyOf(policies);
    }

    public String arn() {
        return "arn:aws:iam::" + accountId + ":user/" + name;
    }

    public Principal principal() {
        return new Principal(PrincipalType.USER, accountId, arn(), userId, name, null, policies, null);
    }
}
