package io.hikyaku.identity;

import java.util.Map;

/**
 * An IAM role of a configured account.
 *
 * @param accountId                 the account that owns the role (where its sessions act)
 * @param name                      the role name
 * @param roleId                    the role's unique id ({@code AROA...}), stable for the same account and name
 * @param trustPolicy               the trust policy JSON (who may assume it), or null (nobody but the account)
 * @param policies                  inline permission policies by name (JSON documents)
 * @param maxSessionDurationSeconds the longest session AssumeRole may grant (3600..43200)
 */
public record Role(String accountId, String name, String roleId, String trustPolicy, Map<String, String> policies,
                   int maxSessionDurationSeconds) {

    public static final int DEFAULT_MAX_SESSION_SECONDS = 3600;

    public Role {
        policies = policies == null ? Map.of() : Map.copyOf(policies);
    }

    public String arn() {
        return "arn:aws:iam::" + accountId + ":role/" + name;
    }
}
