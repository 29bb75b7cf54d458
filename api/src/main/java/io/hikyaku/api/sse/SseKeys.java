package io.hikyaku.api.sse;

import io.hikyaku.protocol.ApiException;

/**
 * The key service as SSE needs it (the server wires the KMS module's data keys here). Every refusal is an
 * {@link ApiException} of SQS's {@code Kms*} types (KMS.DisabledException, KMS.InvalidStateException,
 * KMS.NotFoundException, KMS.AccessDeniedException on the wire).
 */
public interface SseKeys {

    /** A data key and its wrapped form, bound to the encryption context {@code aws:sqs:arn} = the queue's ARN. */
    record WrappedKey(String keyArn, byte[] plaintext, byte[] blob) { }

    /** An enabled key a reference resolved to, as authorizing its use needs it: its ARN, account and key policy. */
    record KeyState(String arn, String account, String policy) { }

    /**
     * SSE-SQS: opens a data key wrapped by the account's SQS owned key, as messages sealed before the compact
     * reference ({@link #newSqsDerivedKey}) carry it.
     */
    byte[] openSqsOwnedKey(String account, byte[] blob, String queueArn);

    /**
     * SSE-SQS, compact: a new data key derived from the account's SQS owned key; its blob is a short reference
     * (material version and salt) that names it without wrapping it. What new messages use.
     */
    WrappedKey newSqsDerivedKey(String account, String queueArn);

    /** SSE-SQS: the data key a reference of {@link #newSqsDerivedKey} names. */
    byte[] openSqsDerivedKey(String account, byte[] reference, String queueArn);

    /**
     * SSE-KMS: the key {@code keyId} names in {@code account}, enabled (KmsNotFound, KmsDisabled, KmsInvalidState
     * otherwise).
     */
    KeyState usableKey(String account, String keyId);

    /** SSE-KMS: the key a wrapped data key names, enabled (else as {@link #usableKey}). */
    KeyState usableKeyOf(byte[] blob);

    /** SSE-KMS: a new data key under the key (an ARN from {@link #usableKey}). */
    WrappedKey newKmsKey(String account, String keyArn, String queueArn);

    /** SSE-KMS: opens a data key of {@link #newKmsKey}. */
    byte[] openKmsKey(byte[] blob, String queueArn);
}
