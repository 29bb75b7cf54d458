package io.hikyaku.sns;

/** A request SNS refuses: its error code, HTTP status and message exactly as AWS words them. */
public final class SnsException extends Exception {

    private final String code;
    private final int status;

    public SnsException(String code, int status, String message) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
    }

    public static SnsException invalidParameter(String reason) {
        return new SnsException("InvalidParameter", 400, "Invalid parameter: " + reason);
    }

    public static SnsException topicNotFound() {
        return new SnsException("NotFound", 404, "Topic does not exist");
    }

    public static SnsException subscriptionNotFound() {
        return new SnsException("NotFound", 404, "Subscription does not exist");
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
