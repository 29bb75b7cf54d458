package io.hikyaku.kms;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SSE-SQS's compact data keys: a data key is HKDF-SHA256 (RFC 5869) of one version of the account's SQS owned key's
 * material, with a fresh random salt and the encryption context (the queue ARN) in its info. What a message stores
 * to name its data key is then only the reference {@code u32 material version | 16-byte salt} (20 bytes, where a
 * wrapped data key is ~150), and no table of data keys is needed: the materials are the key service's durable state
 * already, and old versions are kept when the key rotates.
 */
final class DerivedDataKey {

    static final int SALT_BYTES = 16;
    static final int REFERENCE_BYTES = 4 + SALT_BYTES;
    private static final byte[] LABEL = "hikyaku sse-sqs data key v2".getBytes(StandardCharsets.US_ASCII);

    private DerivedDataKey() {
    }

    static byte[] reference(int materialVersion, byte[] salt) {
        return ByteBuffer.allocate(REFERENCE_BYTES).putInt(materialVersion).put(salt).array();
    }

    /** @throws KmsException InvalidCiphertextException when the bytes are not a reference */
    static int materialVersion(byte[] reference) throws KmsException {
        if (reference == null || reference.length != REFERENCE_BYTES) {
            throw KmsException.invalidCiphertext();
        }
        return ByteBuffer.wrap(reference).getInt();
    }

    /** The 256-bit data key a reference names under {@code material} (the version it names) and {@code context}. */
    static byte[] derive(byte[] material, byte[] reference, Map<String, String> context) {
        try {
            Mac extract = Mac.getInstance("HmacSHA256");
            extract.init(new SecretKeySpec(reference, 4, SALT_BYTES, "HmacSHA256"));
            byte[] prk = extract.doFinal(material);
            Mac expand = Mac.getInstance("HmacSHA256");
            expand.init(new SecretKeySpec(prk, "HmacSHA256"));
            java.util.Arrays.fill(prk, (byte) 0);
            expand.update(LABEL);
            expand.update(CiphertextBlob.contextBytes(context));
            expand.update((byte) 1); // the first (and only) 32-byte block of the expansion
            return expand.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
