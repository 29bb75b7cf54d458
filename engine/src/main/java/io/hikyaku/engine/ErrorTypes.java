package io.hikyaku.engine;

/** The SQS JSON error shape names the engine throws (see {@link EngineException#errorType()}). */
public final class ErrorTypes {
    private ErrorTypes() {}

    public static final String QUEUE_DOES_NOT_EXIST = "QueueDoesNotExist";
    public static final String QUEUE_NAME_EXISTS = "QueueNameExists";
    public static final String QUEUE_DELETED_RECENTLY = "QueueDeletedRecently";
    public static final String INVALID_PARAMETER_VALUE = "InvalidParameterValue";
    public static final String INVALID_ATTRIBUTE_NAME = "InvalidAttributeName";
    public static final String INVALID_ATTRIBUTE_VALUE = "InvalidAttributeValue";
    public static final String MISSING_PARAMETER = "MissingRequiredParameterException";
    public static final String RECEIPT_HANDLE_IS_INVALID = "ReceiptHandleIsInvalid";
    public static final String MESSAGE_NOT_INFLIGHT = "MessageNotInflight";
    public static final String OVER_LIMIT = "OverLimit";
    public static final String PURGE_QUEUE_IN_PROGRESS = "PurgeQueueInProgress";
    public static final String RESOURCE_NOT_FOUND = "ResourceNotFoundException";
    public static final String INVALID_MESSAGE_CONTENTS = "InvalidMessageContents";
    public static final String UNSUPPORTED_OPERATION = "UnsupportedOperation";
    /** 403; the AWS SDKs retry it with backoff. */
    public static final String REQUEST_THROTTLED = "RequestThrottled";

    public static final String NO_QUEUE_MESSAGE = "The specified queue does not exist.";
}
