package io.hikyaku.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the evaluation of one request needs: who calls ({@code principalArn}, its
 * {@code account}, {@code principalType}, {@code userId}, {@code username}), what it asks
 * ({@code action} as an IAM action such as {@code sqs:SendMessage}, on {@code resourceArn} owned by
 * {@code resourceAccount}), and the request's condition keys. Keys are matched case-insensitively;
 * a key with several values (aws:TagKeys) is a list. aws:PrincipalArn, aws:PrincipalAccount,
 * aws:PrincipalType, aws:userid, aws:username and aws:ResourceAccount are derived from the fields when
 * the map does not give them; everything time- or connection-dependent (aws:CurrentTime,
 * aws:EpochTime, aws:SourceIp, aws:SecureTransport, aws:UserAgent) comes from the caller, so
 * evaluation itself never reads a clock.
 *
 * <p>An anonymous caller has type {@link PrincipalType#ANONYMOUS} and null principal fields.
 */
public record RequestContext(String principalArn, String account, PrincipalType principalType, String userId,
                             String username, String action, String resourceArn, String resourceAccount,
                             Map<String, List<String>> conditionKeys) {

    /**
     * The longest request value a condition compares, in characters (aws:UserAgent is the one a client
     * picks freely). A longer value is never matched: the condition fails closed (see
     * {@code Condition#holds}, POLICY.md "Limits").
     */
    public static final int MAX_VALUE_LENGTH = 4096;

    public RequestContext {
        if (principalType == null) {
            throw new IllegalArgumentException("principalType is required");
        }
        if (action == null || resourceArn == null) {
            throw new IllegalArgumentException("action and resourceArn are required");
        }
        Map<String, List<String>> keys = new HashMap<>();
        if (conditionKeys != null) {
            conditionKeys.forEach((k, v) -> keys.put(ConditionKeys.normalize(k), v == null ? List.of() : List.copyOf(v)));
        }
        conditionKeys = Map.copyOf(keys);
    }

    /** An unsigned request. */
    public static RequestContext anonymous(String action, String resourceArn, String resourceAccount,
                                           Map<String, List<String>> conditionKeys) {
        return new RequestContext(null, null, PrincipalType.ANONYMOUS, null, null, action, resourceArn,
                resourceAccount, conditionKeys);
    }

    /** The same caller and keys asking for another action on another resource (e.g. CreateQueue's TagQueue). */
    public RequestContext withRequest(String otherAction, String otherResourceArn, String otherResourceAccount) {
        return new RequestContext(principalArn, account, principalType, userId, username, otherAction,
                otherResourceArn, otherResourceAccount, conditionKeys);
    }

    public boolean isAnonymous() {
        return principalType == PrincipalType.ANONYMOUS;
    }

    /** The values of a condition key (any case), or null when the request does not carry it. */
    public List<String> values(String key) {
        return normalizedValues(ConditionKeys.normalize(key));
    }

    /** {@link #values} for a key already in normal (lower-case) form. */
    List<String> normalizedValues(String k) {
        List<String> given = conditionKeys.get(k);
        if (given != null) {
            return given;
        }
        String derived = switch (k) {
            case "aws:principalarn" -> principalArn;
            case "aws:principalaccount" -> account;
            case "aws:principaltype" -> principalType.awsName();
            case "aws:userid" -> userId;
            case "aws:username" -> principalType == PrincipalType.USER ? username : null;
            case "aws:resourceaccount" -> resourceAccount;
            default -> null;
        };
        return derived == null ? null : List.of(derived);
    }
}
