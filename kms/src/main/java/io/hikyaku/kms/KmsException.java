package io.hikyaku.kms;

/** A request KMS refuses: the error shape's name ({@code NotFoundException} ...) and AWS's message. */
public final class KmsException extends Exception {

    private final String code;
    private final int status;

    public KmsException(String code, String message) {
        this(code, 400, message);
    }

    public KmsException(String code, int status, String message) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
    }

    public static KmsException validation(String message) {
        return new KmsException("ValidationException", message);
    }

    public static KmsException keyNotFound(String keyArn) {
        return new KmsException("NotFoundException", "Key '" + keyArn + "' does not exist");
    }

    public static KmsException aliasNotFound(String aliasArn) {
        return new KmsException("NotFoundException", "Alias '" + aliasArn + "' is not found.");
    }

    public static KmsException disabled(String keyArn) {
        return new KmsException("DisabledException", keyArn + " is disabled.");
    }

    public static KmsException pendingDeletion(String keyArn) {
        return new KmsException("KMSInvalidStateException", keyArn + " is pending deletion.");
    }

    /** AWS sends no message for a ciphertext that does not open (wrong context, damage, another key). */
    public static KmsException invalidCiphertext() {
        return new KmsException("InvalidCiphertextException", null);
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
