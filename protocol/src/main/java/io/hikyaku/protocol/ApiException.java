package io.hikyaku.protocol;

/**
 * An SQS error for the caller. {@code errorType} is the error's JSON shape name as in the SQS
 * service model (e.g. {@code QueueDoesNotExist}, {@code InvalidParameterValue},
 * {@code MissingRequiredParameterException}); {@link ErrorCatalogue} maps it to the Query code, the
 * HTTP status and the fully qualified {@code __type}.
 */
public class ApiException extends RuntimeException {

    private final String errorType;

    public ApiException(String errorType, String message) {
        super(message, null, false, false);
        this.errorType = errorType;
    }

    public String errorType() {
        return errorType;
    }
}
