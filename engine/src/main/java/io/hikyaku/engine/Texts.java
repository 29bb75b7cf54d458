package io.hikyaku.engine;

/** Exact SQS error texts and the exception factories the engine uses. */
final class Texts {
    private Texts() {}

    static EngineException noQueue() {
        return new EngineException(ErrorTypes.QUEUE_DOES_NOT_EXIST, ErrorTypes.NO_QUEUE_MESSAGE);
    }

    static EngineException invalidParameter(String message) {
        return new EngineException(ErrorTypes.INVALID_PARAMETER_VALUE, message);
    }

    /** "Value {v} for parameter {p} is invalid. Reason: {reason}" */
    static EngineException invalidValue(Object value, String parameter, String reason) {
        return invalidParameter("Value " + value + " for parameter " + parameter + " is invalid. Reason: " + reason);
    }

    static EngineException unknownAttribute(String name) {
        return new EngineException(ErrorTypes.INVALID_ATTRIBUTE_NAME, "Unknown Attribute " + name + ".");
    }

    static EngineException invalidAttributeValue(String name) {
        return new EngineException(ErrorTypes.INVALID_ATTRIBUTE_VALUE, "Invalid value for the parameter " + name + ".");
    }

    static EngineException missing(String parameter) {
        return new EngineException(ErrorTypes.MISSING_PARAMETER,
                "The request must contain the parameter " + parameter + ".");
    }

    static EngineException invalidReceiptHandle(String handle) {
        return new EngineException(ErrorTypes.RECEIPT_HANDLE_IS_INVALID,
                "The input receipt handle \"" + handle + "\" is not a valid receipt handle.");
    }

    static EngineException resourceNotFound(String message) {
        return new EngineException(ErrorTypes.RESOURCE_NOT_FOUND, message);
    }

    static final String TOO_BIG_SINGLE = "One or more parameters are invalid. Reason: Message must be shorter than %d bytes.";
    static final String TOO_BIG_BATCH = "One or more parameters cannot be validated. Reason: Message must be shorter than %d bytes.";
    static final String NEED_DEDUP = "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly";
    static final String WRONG_QUEUE_TYPE = "The request include parameter that is not valid for this queue type.";
    static final String INDEX_BUDGET_FULL =
            "The server's in-memory message index is full (--max-indexed-messages); retry after consumers have deleted messages.";
    static final String DEDUP_BUDGET_FULL =
            "The server holds as many FIFO deduplication entries as its memory budget allows (half of --max-indexed-messages); retry later.";
    static final String HANDLE_EXPIRED = "The receipt handle has expired.";
    static final String NOT_AVAILABLE_FOR_CHANGE = "Message does not exist or is not available for visibility timeout change.";
    static final String VISIBILITY_LIMIT = "Total VisibilityTimeout for the message is beyond the limit [43200 seconds]";
    static final String DELETED_RECENTLY = "You must wait 60 seconds after deleting a queue before you can create another with the same name.";
    static final String QUEUE_NAME_RULE = "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length";
    static final String FIFO_NAME_RULE = "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length.";
    static final String OVER_LIMIT_INFLIGHT = "Too many messages have been received without being deleted. Please delete your received messages or let them timeout before receiving more.";
    static final String NOT_A_DLQ = "Source queue must be configured as a Dead Letter Queue.";
    static final String NO_DESTINATION = "The resource that you specified for the DestinationArn parameter doesn't exist.";
    static final String NO_SOURCE = "The resource that you specified for the SourceArn parameter doesn't exist.";
    static final String TASK_RUNNING = "There is already a task running. Only one active task is allowed for a source queue arn at a given time.";
    static final String BAD_TASK_HANDLE = "Value for parameter TaskHandle is invalid.";
    static final String NO_TASK = "Task does not exist.";
}
