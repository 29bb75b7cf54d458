package io.hikyaku.policy;

/**
 * Where a policy document is attached, which decides its grammar: identity and session policies
 * name no principal (the caller is the principal); resource policies (a queue's {@code Policy}) and
 * role trust policies must name one. A trust policy needs no Resource (the role is the resource).
 */
public enum PolicyKind {
    IDENTITY(false, true),
    SESSION(false, true),
    RESOURCE(true, true),
    TRUST(true, false);

    final boolean principalRequired;
    final boolean resourceRequired;

    PolicyKind(boolean principalRequired, boolean resourceRequired) {
        this.principalRequired = principalRequired;
        this.resourceRequired = resourceRequired;
    }
}
