package io.hikyaku.policy;

/** A policy document that is not valid JSON or not valid IAM policy grammar; the message says exactly why. */
public final class PolicyException extends Exception {
    private static final long serialVersionUID = 1L;

    public PolicyException(String reason) {
        super(reason, null, false, false);
    }
}
