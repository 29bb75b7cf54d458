package io.hikyaku.server.sse;

import io.hikyaku.api.sse.SseKeys;
import io.hikyaku.kms.DataKeys;
import io.hikyaku.kms.KmsException;
import io.hikyaku.protocol.ApiException;
import java.util.Map;

/**
 * SSE's keys from the key service ({@link DataKeys}): data keys bound to the encryption context
 * {@code aws:sqs:arn} = the queue's ARN, under the account's SQS owned key (SSE-SQS) or the queue's KMS key
 * (SSE-KMS). KMS's refusals become SQS's: NotFoundException is KMS.NotFoundException, DisabledException
 * KMS.DisabledException, KMSInvalidStateException KMS.InvalidStateException, each with KMS's message.
 */
final class KmsSseKeys implements SseKeys {

    static final String CONTEXT_KEY = "aws:sqs:arn";

    private final DataKeys dataKeys;

    KmsSseKeys(DataKeys dataKeys) {
        this.dataKeys = dataKeys;
    }

    @Override
    public byte[] openSqsOwnedKey(String account, byte[] blob, String queueArn) {
        try {
            return dataKeys.decryptSqsOwned(account, blob, context(queueArn));
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    @Override
    public WrappedKey newSqsDerivedKey(String account, String queueArn) {
        try {
            DataKeys.DataKey k = dataKeys.deriveSqsOwned(account, context(queueArn));
            return new WrappedKey(k.keyArn(), k.plaintext(), k.ciphertextBlob());
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    @Override
    public byte[] openSqsDerivedKey(String account, byte[] reference, String queueArn) {
        try {
            return dataKeys.openDerivedSqsOwned(account, reference, context(queueArn));
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    @Override
    public KeyState usableKey(String account, String keyId) {
        try {
            DataKeys.KeyUse k = dataKeys.use(account, keyId);
            DataKeys.requireUsable(k);
            return new KeyState(k.arn(), k.account(), k.policy());
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    @Override
    public KeyState usableKeyOf(byte[] blob) {
        try {
            DataKeys.KeyUse k = dataKeys.useOf(blob);
            DataKeys.requireUsable(k);
            return new KeyState(k.arn(), k.account(), k.policy());
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    @Override
    public WrappedKey newKmsKey(String account, String keyArn, String queueArn) {
        try {
            DataKeys.DataKey k = dataKeys.generate(account, keyArn, context(queueArn));
            return new WrappedKey(k.keyArn(), k.plaintext(), k.ciphertextBlob());
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    @Override
    public byte[] openKmsKey(byte[] blob, String queueArn) {
        try {
            return dataKeys.decrypt(blob, context(queueArn));
        } catch (KmsException e) {
            throw sqsError(e);
        }
    }

    private static Map<String, String> context(String queueArn) {
        return Map.of(CONTEXT_KEY, queueArn);
    }

    /**
     * SQS's error for a KMS refusal. A data key that no longer opens (its key deleted: KMS answers
     * InvalidCiphertextException) is KMS.NotFoundException; an invalid key reference (ValidationException) too.
     */
    static ApiException sqsError(KmsException e) {
        return switch (e.code()) {
            case "NotFoundException", "ValidationException" -> new ApiException("KmsNotFound", e.getMessage());
            case "InvalidCiphertextException" -> new ApiException("KmsNotFound",
                    "The KMS key that encrypted this message does not exist.");
            case "DisabledException" -> new ApiException("KmsDisabled", e.getMessage());
            case "KMSInvalidStateException" -> new ApiException("KmsInvalidState", e.getMessage());
            case "AccessDeniedException" -> new ApiException("KmsAccessDenied", e.getMessage());
            case "InvalidKeyUsageException" -> new ApiException("KmsInvalidKeyUsage", e.getMessage());
            default -> new ApiException("InternalError", "We encountered an internal error. Please try again.");
        };
    }
}
