package io.hikyaku.identity;

/** The kinds of caller, with the value IAM gives them in the {@code aws:PrincipalType} condition key. */
public enum PrincipalType {
    ACCOUNT("Account"),
    USER("User"),
    ASSUMED_ROLE("AssumedRole"),
    ANONYMOUS("Anonymous");

    private final String conditionValue;

    PrincipalType(String conditionValue) {
        this.conditionValue = conditionValue;
    }

    /** e.g. {@code AssumedRole}: the value of {@code aws:PrincipalType}. */
    public String conditionValue() {
        return conditionValue;
    }
}
