package io.hikyaku.sns;

import io.hikyaku.policy.Decision;
import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyEvaluator;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.policy.PrincipalType;
import io.hikyaku.policy.RequestContext;
import java.util.List;
import java.util.Map;

/**
 * Whether a topic may deliver to a queue, as AWS decides it: SNS sends as the service principal
 * {@code sns.amazonaws.com}, with {@code aws:SourceArn} = the topic's ARN and {@code aws:SourceAccount} = its
 * account, and the queue's {@code Policy} is evaluated for {@code sqs:SendMessage} by the shared IAM evaluator
 * (both the {@code "Service":"sns.amazonaws.com"} form and the SDK helper's {@code "AWS":"*"} form grant it).
 * <p>
 * Hikyaku's decision where AWS is stricter: a queue of the topic's own account receives unless its policy denies
 * the delivery explicitly (AWS wants an Allow there too, but nearly every local setup subscribes its own queues
 * without one); another account's queue receives only when its policy allows. Applied only with {@code --auth
 * sigv4}; with auth none every queue receives.
 */
final class QueueDeliveryPolicy {

    static final String SNS_PRINCIPAL = "sns.amazonaws.com";

    private final boolean enforce;
    private final PolicyCache policies = PolicyCache.shared();

    QueueDeliveryPolicy(boolean enforce) {
        this.enforce = enforce;
    }

    boolean enforced() {
        return enforce;
    }

    /** @param queuePolicy the queue's Policy attribute, or null/empty when it has none */
    boolean allows(String topicArn, String queueArn, String queuePolicy) {
        if (!enforce) {
            return true;
        }
        String topicAccount = SnsArns.account(topicArn);
        String queueAccount = queueArn.split(":")[4];
        boolean sameAccount = queueAccount.equals(topicAccount);
        if (queuePolicy == null || queuePolicy.isEmpty()) {
            return sameAccount;
        }
        Policy policy;
        try {
            policy = policies.get(queuePolicy, PolicyKind.RESOURCE);
        } catch (PolicyException invalid) {
            return false; // validated when set; one that no longer parses grants nothing
        }
        RequestContext c = new RequestContext(SNS_PRINCIPAL, null, PrincipalType.SERVICE, null, null, "sqs:SendMessage",
                queueArn, queueAccount, Map.of("aws:SourceArn", List.of(topicArn), "aws:SourceAccount", List.of(topicAccount)));
        Decision d = PolicyEvaluator.evaluate(c, List.of(), policy, null);
        if (d.allowed()) {
            return true;
        }
        return sameAccount && d.reason() != Decision.Reason.EXPLICIT_DENY_IN_RESOURCE_POLICY;
    }
}
