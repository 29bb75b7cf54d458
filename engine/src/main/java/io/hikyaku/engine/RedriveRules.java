package io.hikyaku.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/** RedrivePolicy / RedriveAllowPolicy rules that involve other queues, and the canonical stored form. */
final class RedriveRules {
    private RedriveRules() {}

    /** The RedrivePolicy a request leaves in place (current one when absent, null when ""), checked. */
    static RedrivePolicy check(Registry queues, Map<String, String> request, AttributeUpdate update,
                               String sourceArn, String account, String region, boolean fifo,
                               RedrivePolicy current) {
        String json = request.get(AttributeRules.REDRIVE_POLICY);
        if (json == null) {
            return current;
        }
        if (json.isEmpty()) {
            return null;
        }
        RedrivePolicy p = update == null ? null : update.redrivePolicy();
        if (p == null || p.deadLetterTargetArn() == null) {
            throw Texts.invalidValue(json, "RedrivePolicy", "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.");
        }
        if (p.maxReceiveCount() == null) {
            throw Texts.invalidValue(json, "RedrivePolicy", "Redrive policy does not contain mandatory attribute: maxReceiveCount.");
        }
        if (p.maxReceiveCount() < 1 || p.maxReceiveCount() > 1000) {
            throw Texts.invalidValue(json, "RedrivePolicy", "Invalid value for maxReceiveCount: " + p.maxReceiveCount()
                    + ", valid values are from 1 to 1000 both inclusive.");
        }
        QueueState dlq = queues.byArn.get(p.deadLetterTargetArn());
        if (dlq == null) {
            throw Texts.invalidValue(json, "RedrivePolicy", "Dead letter target does not exist.");
        }
        if (!dlq.accountId.equals(account) || !dlq.region.equals(region)) {
            throw Texts.invalidValue(json, "RedrivePolicy",
                    "Dead-letter target owner and region must match the source queue owner and region.");
        }
        if (dlq.fifo != fifo) {
            throw Texts.invalidValue(json, "RedrivePolicy", "Dead-letter queue must be same type of queue as the source.");
        }
        RedriveAllowPolicy allow = dlq.settings.redriveAllowPolicy;
        if (allow != null && (allow.redrivePermission().equals("denyAll")
                || allow.redrivePermission().equals("byQueue") && !allow.sourceQueueArns().contains(sourceArn))) {
            throw Texts.invalidValue(json, "RedrivePolicy", "Queue " + sourceArn + " is not allowed to use "
                    + dlq.arn + " as a dead-letter queue.");
        }
        return p;
    }

    /**
     * SQS answers GetQueueAttributes with the RedrivePolicy re-serialised (maxReceiveCount as a
     * number whatever the client sent), so the stored value is that canonical form.
     */
    static Map<String, String> canonical(Map<String, String> request, AttributeUpdate update) {
        String json = request.get(AttributeRules.REDRIVE_POLICY);
        RedrivePolicy p = update == null ? null : update.redrivePolicy();
        if (json == null || json.isEmpty() || p == null || p.deadLetterTargetArn() == null || p.maxReceiveCount() == null) {
            return request;
        }
        Map<String, String> out = new LinkedHashMap<>(request);
        out.put(AttributeRules.REDRIVE_POLICY, "{\"deadLetterTargetArn\":" + PolicyDocument.quote(p.deadLetterTargetArn())
                + ",\"maxReceiveCount\":" + p.maxReceiveCount() + "}");
        return out;
    }

    static RedriveAllowPolicy checkAllow(Map<String, String> request, AttributeUpdate update,
                                                        RedriveAllowPolicy current) {
        String json = request.get(AttributeRules.REDRIVE_ALLOW_POLICY);
        if (json == null) {
            return current;
        }
        if (json.isEmpty()) {
            return null;
        }
        RedriveAllowPolicy p = update == null ? null : update.redriveAllowPolicy();
        AttributeRules.checkRedriveAllow(json, p);
        return p;
    }
}
