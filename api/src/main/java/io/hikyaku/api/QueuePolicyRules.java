package io.hikyaku.api;

import io.hikyaku.policy.Policy;
import io.hikyaku.policy.PolicyCache;
import io.hikyaku.policy.PolicyException;
import io.hikyaku.policy.PolicyKind;
import io.hikyaku.policy.SqsPolicyQuotas;
import io.hikyaku.protocol.ApiException;

/**
 * The queue {@code Policy} attribute as CreateQueue / SetQueueAttributes accept it: at most 8,192
 * bytes, a valid IAM resource policy (grammar checked by iam-policy; any fault is SQS's one
 * message "Invalid value for the parameter Policy."), within SQS's statement, action, principal and
 * condition quotas (403 OverLimit). The parsed policy stays in the shared cache, ready for
 * authorization.
 */
final class QueuePolicyRules {

    private QueuePolicyRules() {}

    static Policy check(String document) {
        SqsPolicyQuotas.sizeViolation(document).ifPresent(message -> {
            throw new ApiException("OverLimit", message);
        });
        Policy policy;
        try {
            policy = PolicyCache.shared().get(document, PolicyKind.RESOURCE);
        } catch (PolicyException e) {
            throw new ApiException("InvalidAttributeValue", "Invalid value for the parameter Policy.");
        }
        SqsPolicyQuotas.violation(policy).ifPresent(message -> {
            throw new ApiException("OverLimit", message);
        });
        return policy;
    }
}
