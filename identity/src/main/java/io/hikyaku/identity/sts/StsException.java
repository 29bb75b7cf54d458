package io.hikyaku.identity.sts;

/** An STS error: its Query code, HTTP status and message. */
public final class StsException extends RuntimeException {

    private final String code;
    private final int status;

    public StsException(String code, int status, String message) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    static StsException validation(String message) {
        return new StsException("ValidationError", 400, message);
    }

    static StsException accessDenied(String message) {
        return new StsException("AccessDenied", 403, message);
    }
}
