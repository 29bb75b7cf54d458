package io.hikyaku.cloudwatch;

/**
 * A CloudWatch error answer: its Query error code (null: none, no {@code x-amzn-query-error} header),
 * the JSON / RPC v2 shape name (with a {@code #}: the whole {@code __type}), HTTP status and message.
 */
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

    static CloudWatchException limitExceeded(String message) {
        return new CloudWatchException("LimitExceeded", "LimitExceededFault", 400, true, message);
    }

    static CloudWatchException resourceNotFound(String message) {
        return new CloudWatchException("ResourceNotFound", "ResourceNotFound", 404, true, message);
    }

    static CloudWatchException resourceNotFoundException(String message) {
        return new CloudWatchException("ResourceNotFoundException", "ResourceNotFoundException", 404, true, message);
    }

    /** CloudWatch's generic validation error (metric math, alarm action ARNs). */
    static CloudWatchException validation(String message) {
        return new CloudWatchException("ValidationError", "ValidationError", 400, true, message);
    }

    static CloudWatchException invalidFormat(String message) {
        return new CloudWatchException("InvalidFormat", "InvalidFormatFault", 400, true, message);
    }

    static CloudWatchException invalidNextToken() {
        return new CloudWatchException("InvalidNextToken", "InvalidNextToken", 400, true, "The service returned an error: the NextToken is not valid.");
    }

    static CloudWatchException invalidAction(String action) {
        return new CloudWatchException("InvalidAction", "InvalidAction", 400, true,
                "The action " + action + " is not valid for this web service.");
    }

    /**
     * An operation that is not in the table, in the JSON or RPC v2 shape: the framework's
     * {@code com.amazon.coral.service#UnknownOperationException}, with no Query code (as SQS answers a
     * mistargeted JSON call, 400); RPC v2 answers 404, as Smithy's RPC v2 routers do.
     */
    static CloudWatchException unknownOperation(String operation, int status) {
        return new CloudWatchException(null, "com.amazon.coral.service#UnknownOperationException", status, true,
                "The operation " + operation + " is not valid for this web service.");
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
