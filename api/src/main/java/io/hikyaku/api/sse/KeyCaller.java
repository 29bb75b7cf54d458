package io.hikyaku.api.sse;

import java.util.List;
import java.util.Map;

/**
 * The caller of an SQS request as KMS authorization sees it (SSE-KMS): SQS uses the queue's key on the caller's
 * behalf, so the caller needs {@code kms:GenerateDataKey} to send and {@code kms:Decrypt} to receive, under its IAM
 * policies and the key's policy, with {@code kms:ViaService} = {@code sqs.<region>.amazonaws.com}. The server builds
 * it from the authenticated principal (the same evaluation as a direct KMS call).
 */
@FunctionalInterface
public interface KeyCaller {

    /**
     * @return null when allowed, else the denial text (IAM's sentence)
     */
    String denial(String iamAction, String keyArn, String keyAccount, String keyPolicy, Map<String, List<String>> conditionKeys);
}
