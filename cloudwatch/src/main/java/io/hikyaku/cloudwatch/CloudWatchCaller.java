package io.hikyaku.cloudwatch;

import java.util.function.BiFunction;

/**
 * Who calls the CloudWatch API, once authenticated: the account whose queues' metrics it sees, and
 * its authorizer, which takes an operation's IAM action and resource as {@link CloudWatchOperations}
 * lists them ({@code cloudwatch:GetMetricData} on {@code "*"} ...) and answers null when the caller may
 * perform it, else the AccessDenied text.
 */
public record CloudWatchCaller(String accountId, BiFunction<String, String, String> authorizer) {}
