package io.hikyaku.engine;

/**
 * A command was refused. {@link #errorType()} is the SQS JSON error shape name (e.g. {@code
 * QueueDoesNotExist}, {@code InvalidParameterValue}); {@link #getMessage()} is the exact SQS
 * message text. The api layer maps the type to the wire error (Query code, HTTP status).
 */
public class EngineException extends RuntimeException {

    private final String errorType;

    public EngineException(String errorType, String message) {
        super(message, null, false, false);
        this.errorType = errorType;
    }

    public String errorType() {
        return errorType;
    }
}
