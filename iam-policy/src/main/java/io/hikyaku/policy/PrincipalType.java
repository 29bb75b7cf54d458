package io.hikyaku.policy;

/** The kind of caller, with the value AWS gives the {@code aws:PrincipalType} condition key. */
public enum PrincipalType {
    /** An account's root credentials: every action on the account's own resources. */
    ACCOUNT("Account"),
    USER("User"),
    /** A role session from STS AssumeRole ({@code arn:aws:sts::ACCT:assumed-role/ROLE/SESSION}). */
    ASSUMED_ROLE("AssumedRole"),
    FEDERATED_USER("FederatedUser"),
    /** An unsigned request: only statements with {@code "Principal": "*"} can allow it. */
    ANONYMOUS("Anonymous"),
    /** A service acting for a resource of its own (e.g. a topic delivering to a queue): {@code {"Service": ...}}. */
    SERVICE("Service");

    private final String awsName;

    PrincipalType(String awsName) {
        this.awsName = awsName;
    }

    public String awsName() {
        return awsName;
    }
}
