package io.hikyaku.sns;

import io.hikyaku.filter.SnsFilterPolicy;
import java.util.Map;
import java.util.TreeMap;

/** One subscription of the state: where a topic's messages go, and with which delivery attributes. */
final class Subscription {

    final String arn;
    final String topicArn;
    final String owner;
    final String protocol;
    final String endpoint;
    final String principal;
    /** Attributes set by Subscribe or SetSubscriptionAttributes ({@code RawMessageDelivery}, {@code FilterPolicy}...). */
    final Map<String, String> attributes = new TreeMap<>();
    boolean pendingConfirmation;
    boolean confirmationAuthenticated;
    /** The confirmation token while pending; null once confirmed (or for endpoints that need none). */
    String token;
    /** The compiled {@code FilterPolicy} in its scope, or null when there is none. */
    SnsFilterPolicy filter;

    Subscription(String arn, String topicArn, String owner, String protocol, String endpoint, String principal) {
        this.arn = arn;
        this.topicArn = topicArn;
        this.owner = owner;
        this.protocol = protocol;
        this.endpoint = endpoint;
        this.principal = principal;
    }
}
