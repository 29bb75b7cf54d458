package io.hikyaku.filter;

/**
 * An SNS filter policy (or scope) that SNS would refuse. {@link #getMessage()} is the reason as SNS words it
 * after its {@code "Invalid parameter: "} prefix (SetSubscriptionAttributes) or
 * {@code "Invalid parameter: Attributes Reason: "} prefix (Subscribe), e.g.
 * {@code "FilterPolicy: Empty arrays are not allowed"}; the caller adds the prefix of its action.
 */
public final class FilterPolicyException extends Exception {

    public FilterPolicyException(String reason) {
        super(reason, null, false, false);
    }
}
