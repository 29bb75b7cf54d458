package io.hikyaku.push;

/**
 * A Lambda API error for the caller: the error type goes into {@code x-amzn-ErrorType}, the message into
 * the JSON body, with the HTTP status Lambda uses for that type.
 */
public final class LambdaException extends RuntimeException {

    private final String errorType;
    private final int status;

    public LambdaException(String errorType, int status, String message) {
        super(message, null, false, false);
        this.errorType = errorType;
        this.status = status;
    }

    public String errorType() {
        return errorType;
    }

    public int status() {
        return status;
    }

    /** 400 InvalidParameterValueException: a value is valid in form but not for this mapping. */
    public static LambdaException invalidParameter(String message) {
        return new LambdaException("InvalidParameterValueException", 400, message);
    }

    /** 400 ValidationException: a value breaks the API model's constraints (length, range, enum). */
    public static LambdaException validation(String message) {
        return new LambdaException("ValidationException", 400, message);
    }

    /** 404 ResourceNotFoundException. */
    public static LambdaException notFound(String message) {
        return new LambdaException("ResourceNotFoundException", 404, message);
    }

    /** 409 ResourceConflictException. */
    public static LambdaException conflict(String message) {
        return new LambdaException("ResourceConflictException", 409, message);
    }

    /** The message Lambda gives for an unknown mapping UUID. */
    public static LambdaException noSuchMapping() {
        return notFound("The resource you requested does not exist.");
    }
}
