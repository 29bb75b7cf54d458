package io.hikyaku.api;

import io.hikyaku.engine.ErrorTypes;
import io.hikyaku.protocol.ApiException;

/** The SQS errors the api layer raises, with AWS's wording. errorType is the JSON shape name. */
final class Errors {

    private Errors() {}

    static ApiException missing(String parameter) {
        return new ApiException("MissingRequiredParameterException",
                "The request must contain the parameter " + parameter + ".");
    }

    /** "Value {v} for parameter {p} is invalid. Reason: {reason}" (AWS's standard shape). */
    static ApiException invalidValue(String parameter, Object value, String reason) {
        return new ApiException("InvalidParameterValue",
                "Value " + value + " for parameter " + parameter + " is invalid. Reason: " + reason);
    }

    static ApiException invalidParameter(String message) {
        return new ApiException("InvalidParameterValue", message);
    }

    static ApiException invalidAttributeValue(String name, String reason) {
        return new ApiException("InvalidAttributeValue",
                "Invalid value for the parameter " + name + ". Reason: " + reason);
    }

    static ApiException invalidAction(String action) {
        return new ApiException("InvalidAction", "The action " + action + " is not valid for this endpoint.");
    }

    /** Behaviour 1's error (the Query codec words it for Query). */
    static ApiException noSuchQueue() {
        return new ApiException(ErrorTypes.QUEUE_DOES_NOT_EXIST, ErrorTypes.NO_QUEUE_MESSAGE);
    }

    static ApiException invalidMessageContents(String message) {
        return new ApiException("InvalidMessageContents", message);
    }

    /**
     * A JSON value of the wrong type. Amazon SQS (a Coral service) answers such bodies with 400
     * {@code SerializationException}, e.g. "STRING_VALUE can not be converted to an Integer".
     */
    static ApiException serialization(String message) {
        return new ApiException("SerializationException", message);
    }

}
