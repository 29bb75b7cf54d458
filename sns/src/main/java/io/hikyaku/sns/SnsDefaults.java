package io.hikyaku.sns;

/** The values SNS reports for attributes nobody set (from AWS recordings). */
final class SnsDefaults {

    static final String EFFECTIVE_DELIVERY_POLICY = "{\"http\":{\"defaultHealthyRetryPolicy\":{\"minDelayTarget\":20,"
            + "\"maxDelayTarget\":20,\"numRetries\":3,\"numMaxDelayRetries\":0,\"numNoDelayRetries\":0,"
            + "\"numMinDelayRetries\":0,\"backoffFunction\":\"linear\"},\"disableSubscriptionOverrides\":false,"
            + "\"defaultRequestPolicy\":{\"headerContentType\":\"text/plain; charset=UTF-8\"}}}";

    static final String EFFECTIVE_HTTP_SUBSCRIPTION_DELIVERY_POLICY = "{\"healthyRetryPolicy\":{\"minDelayTarget\":20,"
            + "\"maxDelayTarget\":20,\"numRetries\":3,\"numMaxDelayRetries\":0,\"numNoDelayRetries\":0,"
            + "\"numMinDelayRetries\":0,\"backoffFunction\":\"linear\"},\"sicklyRetryPolicy\":null,"
            + "\"throttlePolicy\":null,\"requestPolicy\":{\"headerContentType\":\"text/plain; charset=UTF-8\"},"
            + "\"guaranteed\":false}";

    private SnsDefaults() {
    }

    /** The policy a new topic carries: every account-owner action, for the owner only. */
    static String defaultPolicy(String topicArn, String account) {
        return "{\"Version\":\"2008-10-17\",\"Id\":\"__default_policy_ID\",\"Statement\":[{\"Sid\":\"__default_statement_ID\","
                + "\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"*\"},\"Action\":[\"SNS:GetTopicAttributes\","
                + "\"SNS:SetTopicAttributes\",\"SNS:AddPermission\",\"SNS:RemovePermission\",\"SNS:DeleteTopic\","
                + "\"SNS:Subscribe\",\"SNS:ListSubscriptionsByTopic\",\"SNS:Publish\"],\"Resource\":\"" + topicArn + "\","
                + "\"Condition\":{\"StringEquals\":{\"AWS:SourceOwner\":\"" + account + "\"}}}]}";
    }
}
