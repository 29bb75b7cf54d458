package io.hikyaku.cloudwatch;

import java.util.function.Function;

/**
 * Who calls the CloudWatch API, once authenticated: the account whose queues' metrics it sees, and
 * its authorizer, which takes an IAM action ({@code cloudwatch:GetMetricData},
 * {@code cloudwatch:GetMetricStatistics}, {@code cloudwatch:ListMetrics}) and answers null when the
 * caller may perform it, else the AccessDenied text.
 */
public record CloudWatchCaller(String accountId, Function<String, String> authorizer) {}
