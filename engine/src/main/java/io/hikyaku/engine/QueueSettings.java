package io.hikyaku.engine;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A queue's settable attributes: the canonical string values (as GetQueueAttributes returns them;
 * absent = not set) plus typed views and the parsed redrive policies.
 */
final class QueueSettings {

    final Map<String, String> values;
    final RedrivePolicy redrivePolicy;
    final RedriveAllowPolicy redriveAllowPolicy;
    final int delaySeconds;
    final int maximumMessageSize;
    final int messageRetentionPeriod;
    final int receiveMessageWaitTimeSeconds;
    final int visibilityTimeout;
    final boolean fifo;
    final boolean contentBasedDeduplication;
    final boolean dedupPerGroup;

    QueueSettings(Map<String, String> values, RedrivePolicy redrivePolicy, RedriveAllowPolicy redriveAllowPolicy) {
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        this.redrivePolicy = values.containsKey(AttributeRules.REDRIVE_POLICY) ? redrivePolicy : null;
        this.redriveAllowPolicy = values.containsKey(AttributeRules.REDRIVE_ALLOW_POLICY) ? redriveAllowPolicy : null;
        this.delaySeconds = Integer.parseInt(values.get("DelaySeconds"));
        this.maximumMessageSize = Integer.parseInt(values.get("MaximumMessageSize"));
        this.messageRetentionPeriod = Integer.parseInt(values.get("MessageRetentionPeriod"));
        this.receiveMessageWaitTimeSeconds = Integer.parseInt(values.get("ReceiveMessageWaitTimeSeconds"));
        this.visibilityTimeout = Integer.parseInt(values.get("VisibilityTimeout"));
        this.fifo = "true".equals(values.get("FifoQueue"));
        this.contentBasedDeduplication = "true".equals(values.get("ContentBasedDeduplication"));
        this.dedupPerGroup = "messageGroup".equals(values.get("DeduplicationScope"));
    }

    long retentionMillis() {
        return messageRetentionPeriod * 1000L;
    }

    static QueueSettings defaults(boolean fifo) {
        Map<String, String> v = new TreeMap<>();
        v.put("DelaySeconds", "0");
        v.put("MaximumMessageSize", "1048576");
        v.put("MessageRetentionPeriod", "345600");
        v.put("ReceiveMessageWaitTimeSeconds", "0");
        v.put("VisibilityTimeout", "30");
        v.put("SqsManagedSseEnabled", "true");
        if (fifo) {
            v.put("FifoQueue", "true");
            v.put("ContentBasedDeduplication", "false");
            v.put("DeduplicationScope", "queue");
            v.put("FifoThroughputLimit", "perQueue");
        }
        return new QueueSettings(v, null, null);
    }

    void encode(Enc e) {
        e.strMap(values);
        e.bool(redrivePolicy != null);
        if (redrivePolicy != null) {
            e.str(redrivePolicy.deadLetterTargetArn()).nullableInt(redrivePolicy.maxReceiveCount());
        }
        e.bool(redriveAllowPolicy != null);
        if (redriveAllowPolicy != null) {
            e.str(redriveAllowPolicy.redrivePermission()).strList(redriveAllowPolicy.sourceQueueArns());
        }
    }

    static QueueSettings decode(Dec d) {
        Map<String, String> values = d.strMap();
        RedrivePolicy rp = d.bool() ? new RedrivePolicy(d.str(), d.nullableInt()) : null;
        RedriveAllowPolicy rap = d.bool() ? new RedriveAllowPolicy(d.str(), d.strList()) : null;
        return new QueueSettings(values, rp, rap);
    }
}
