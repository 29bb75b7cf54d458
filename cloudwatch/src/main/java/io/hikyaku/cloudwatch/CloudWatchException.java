package io.hikyaku.cloudwatch;

/** A CloudWatch error answer: its Query error code, the RPC v2 shape name, HTTP status and message. */
final class CloudWatchException extends RuntimeException {

    final String code;
    final String shape;
    final int status;
    final boolean sender;

    private CloudWatchException(String code, String shape, int status, boolean sender, String message) {
        super(message, null, false, false);
        this.code = code;
        this.shape = shape;
        this.status = status;
        this.sender = sender;
    }

    static CloudWatchException invalidValue(String message) {
        return new CloudWatchException("InvalidParameterValue", "InvalidParameterValueException", 400, true, message);
    }

    static CloudWatchException missing(String parameter) {
        return new CloudWatchException("MissingParameter", "MissingRequiredParameterException", 400, true,
                "The parameter " + parameter + " is required.");
    }

    static CloudWatchException combination(String message) {
        return new CloudWatchException("InvalidParameterCombination", "InvalidParameterCombinationException", 400, true, message);
    }

    static CloudWatchException invalidAction(String action) {
        return new CloudWatchException("InvalidAction", "InvalidAction", 400, true,
                "The action " + action + " is not valid for this web service.");
    }

    static CloudWatchException accessDenied(String message) {
        return new CloudWatchException("AccessDenied", "AccessDeniedException", 403, true, message);
    }

    static CloudWatchException internal() {
        return new CloudWatchException("InternalServiceError", "InternalServiceFault", 500, false,
                "We encountered an internal error. Please try again.");
    }

    static CloudWatchException malformed(String message) {
        return new CloudWatchException("SerializationException", "SerializationException", 400, true, message);
    }
}
