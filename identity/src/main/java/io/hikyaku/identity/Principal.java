package io.hikyaku.identity;

import java.util.Map;
import java.util.Objects;

/**
 * Who a request comes from, once authenticated. What authorization needs is all here: the ARN
 * ({@code aws:PrincipalArn}), the account ({@code aws:PrincipalAccount}), the type
 * ({@code aws:PrincipalType}), the unique id ({@code aws:userid}), the user name
 * ({@code aws:username}), the identity policies that apply and the session policy of an assumed
 * role.
 *
 * @param type             account root, IAM user, assumed role session or anonymous
 * @param accountId        the 12-digit account the principal acts in (null for anonymous)
 * @param arn              e.g. {@code arn:aws:iam::111111111111:user/alice},
 *                         {@code arn:aws:sts::111111111111:assumed-role/worker/s1}; {@code *} for anonymous
 * @param userId           e.g. {@code AIDA...} for a user, {@code AROA...:session} for a role
 *                         session, the account id for the root, {@code anonymous} for anonymous
 * @param userName         the IAM user name (users only), else null
 * @param roleArn          the role's ARN for an assumed-role session, else null
 * @param identityPolicies inline identity policies by name, each an IAM policy JSON document
 * @param sessionPolicy    the session policy JSON given to AssumeRole, or null
 */
public record Principal(PrincipalType type, String accountId, String arn, String userId, String userName,
                        String roleArn, Map<String, String> identityPolicies, String sessionPolicy) {

    private static final Principal ANONYMOUS = new Principal(PrincipalType.ANONYMOUS, null, "*", "anonymous", null, null, Map.of(), null);

    public Principal {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(arn, "arn");
        identityPolicies = identityPolicies == null ? Map.of() : Map.copyOf(identityPolicies);
    }

    /** The caller of an unsigned request. */
    public static Principal anonymous() {
        return ANONYMOUS;
    }

    /** The root of {@code accountId}: {@code arn:aws:iam::<id>:root}, user id = the account id. */
    public static Principal accountRoot(String accountId) {
        return new Principal(PrincipalType.ACCOUNT, accountId, "arn:aws:iam::" + accountId + ":root", accountId, null, null, Map.of(), null);
    }

    public boolean isAnonymous() {
        return type == PrincipalType.ANONYMOUS;
    }
}
