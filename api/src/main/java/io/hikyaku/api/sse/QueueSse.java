package io.hikyaku.api.sse;

import java.util.List;
import java.util.Map;

/**
 * A queue's encryption at rest as its attributes set it: SSE-SQS ({@code SqsManagedSseEnabled=true}), SSE-KMS
 * ({@code KmsMasterKeyId}, data keys reused for {@code KmsDataKeyReusePeriodSeconds}) or none.
 */
public record QueueSse(Mode mode, String queueArn, String kmsKeyId, int reuseSeconds, boolean contentDedup) {

    public enum Mode { NONE, SQS, KMS }

    /** The attributes {@link #of} reads. */
    public static final List<String> ATTRIBUTES = List.of("QueueArn", "SqsManagedSseEnabled", "KmsMasterKeyId",
            "KmsDataKeyReusePeriodSeconds", "FifoQueue", "ContentBasedDeduplication");

    public static QueueSse of(Map<String, String> attributes) {
        String key = attributes.get("KmsMasterKeyId");
        Mode mode = key != null && !key.isEmpty() ? Mode.KMS
                : "true".equals(attributes.get("SqsManagedSseEnabled")) ? Mode.SQS : Mode.NONE;
        String reuse = attributes.get("KmsDataKeyReusePeriodSeconds");
        return new QueueSse(mode, attributes.get("QueueArn"), mode == Mode.KMS ? key : null,
                reuse == null ? 300 : Integer.parseInt(reuse),
                "true".equals(attributes.get("FifoQueue")) && "true".equals(attributes.get("ContentBasedDeduplication")));
    }

    public boolean encrypted() {
        return mode != Mode.NONE;
    }
}
