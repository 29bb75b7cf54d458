package io.hikyaku.identity.sts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Role;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a role's trust policy lets a caller assume it. A deliberately small stand-in until the
 * policy evaluator is wired in: a statement matches when its Action is {@code sts:AssumeRole},
 * {@code sts:*} or {@code *} (case-insensitive; also in a list) and its {@code Principal} is
 * {@code "*"} or has an {@code AWS} entry that is {@code "*"}, the caller's 12-digit account, the
 * account's root ARN {@code arn:aws:iam::<acct>:root} (= any principal of that account), the caller's
 * exact ARN, or, for an assumed-role session, its role's ARN. A statement with a {@code Condition} or
 * a {@code NotPrincipal}/{@code NotAction} is not understood here and never allows. A matching Deny
 * wins over any Allow; no matching Allow means no.
 */
final class TrustPolicyCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TrustPolicyCheck() {}

    static boolean allows(Role role, Principal caller) {
        if (role.trustPolicy() == null || caller.isAnonymous()) {
            return false;
        }
        JsonNode policy;
        try {
            policy = JSON.readTree(role.trustPolicy());
        } catch (IOException e) {
            return false;
        }
        JsonNode statements = policy.path("Statement");
        List<JsonNode> list = new ArrayList<>();
        if (statements.isArray()) {
            statements.forEach(list::add);
        } else if (statements.isObject()) {
            list.add(statements);
        }
        boolean allowed = false;
        for (JsonNode s : list) {
            if (!actionMatches(s.path("Action")) || !principalMatches(s.path("Principal"), caller)) {
                continue;
            }
            String effect = s.path("Effect").asText();
            if (effect.equals("Deny")) {
                return false;
            }
            if (effect.equals("Allow") && !s.has("Condition") && !s.has("NotPrincipal") && !s.has("NotAction")) {
                allowed = true;
            }
        }
        return allowed;
    }

    private static boolean actionMatches(JsonNode action) {
        for (String a : texts(action)) {
            String v = a.toLowerCase(Locale.ROOT);
            if (v.equals("*") || v.equals("sts:*") || v.equals("sts:assumerole")) {
                return true;
            }
        }
        return false;
    }

    private static boolean principalMatches(JsonNode principal, Principal caller) {
        if (principal.isTextual()) {
            return principal.asText().equals("*");
        }
        for (String p : texts(principal.path("AWS"))) {
            if (p.equals("*") || p.equals(caller.accountId()) || p.equals("arn:aws:iam::" + caller.accountId() + ":root")
                    || p.equals(caller.arn()) || (caller.roleArn() != null && p.equals(caller.roleArn()))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> texts(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node.isTextual()) {
            out.add(node.asText());
        } else if (node.isArray()) {
            node.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
