package io.hikyaku.policy;

import java.util.Locale;

/** The outcome of {@link PolicyEvaluator#evaluate} and why, enough to word AWS's AccessDenied message. */
public record Decision(boolean allowed, Reason reason) {

    public enum Reason {
        ALLOWED_AS_ACCOUNT_ROOT,
        ALLOWED_BY_IDENTITY_POLICY,
        ALLOWED_BY_RESOURCE_POLICY,
        EXPLICIT_DENY_IN_IDENTITY_POLICY,
        EXPLICIT_DENY_IN_RESOURCE_POLICY,
        EXPLICIT_DENY_IN_SESSION_POLICY,
        NO_IDENTITY_POLICY_ALLOWS,
        NO_RESOURCE_POLICY_ALLOWS,
        NO_SESSION_POLICY_ALLOWS,
        /** An owner-only action (SqsActions#isOwnerOnly) asked by another account or an anonymous caller. */
        OWNER_ONLY_ACTION
    }

    static Decision allow(Reason reason) {
        return new Decision(true, reason);
    }

    static Decision deny(Reason reason) {
        return new Decision(false, reason);
    }

    /**
     * AWS's current AccessDenied text, e.g. {@code User: arn:aws:iam::111111111111:user/alice is not
     * authorized to perform: sqs:sendmessage on resource: arn:aws:sqs:us-east-1:222222222222:orders
     * because no resource-based policy allows the sqs:sendmessage action} (the action lower-cased, as
     * SQS writes it). Null for an allowed request.
     */
    public String denialMessage(RequestContext c) {
        if (allowed) {
            return null;
        }
        String action = c.action().toLowerCase(Locale.ROOT);
        String who = c.isAnonymous() ? "anonymous" : c.principalArn();
        String head = "User: " + who + " is not authorized to perform: " + action + " on resource: " + c.resourceArn();
        return switch (reason) {
            case EXPLICIT_DENY_IN_IDENTITY_POLICY -> head + " with an explicit deny in an identity-based policy";
            case EXPLICIT_DENY_IN_RESOURCE_POLICY -> head + " with an explicit deny in a resource-based policy";
            case EXPLICIT_DENY_IN_SESSION_POLICY -> head + " with an explicit deny in a session policy";
            case NO_IDENTITY_POLICY_ALLOWS -> head + " because no identity-based policy allows the " + action + " action";
            case NO_SESSION_POLICY_ALLOWS -> head + " because no session policy allows the " + action + " action";
            default -> head + " because no resource-based policy allows the " + action + " action";
        };
    }
}
