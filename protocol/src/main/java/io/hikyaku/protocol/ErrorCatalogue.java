package io.hikyaku.protocol;

import java.util.HashMap;
import java.util.Map;

/**
 * For every SQS error type (the JSON shape name an {@link ApiException} carries): its Query error
 * code, HTTP status, fault and fully qualified JSON {@code __type}. One line per error; sources are
 * sqs-behaviours.md first, then the awsQueryError traits of SQS's current Smithy model (as generated
 * into the AWS SDKs: e.g. InvalidAddress 404, InvalidSecurity and RequestThrottled 403, KMS errors
 * under {@code KMS.*Exception} codes), then the 2012-11-05 Query model's {@code error} blocks.
 * ReceiptHandleIsInvalid stays 400 as sqs-behaviours.md 46/47 record, although the Smithy model
 * declares 404.
 */
public final class ErrorCatalogue {

    /** How one error type travels on the wire. */
    public record Entry(String errorType, String queryCode, int status, boolean senderFault, String jsonType) {
        /** {@code Sender} or {@code Receiver}, as Query's {@code <Type>} and the x-amzn-query-error suffix. */
        public String fault() {
            return senderFault ? "Sender" : "Receiver";
        }
    }

    private static final String SQS = "com.amazonaws.sqs#";
    private static final String CORAL = "com.amazon.coral.service#";
    private static final Map<String, Entry> ENTRIES = new HashMap<>();
    /** The same entries by Query code, so a caller that names an error by its code still gets it right. */
    private static final Map<String, Entry> BY_QUERY_CODE = new HashMap<>();

    static {
        // errorType                          Query code                                        status  sender  JSON __type
        add("QueueDoesNotExist",              "AWS.SimpleQueueService.NonExistentQueue",          400, true,  SQS + "QueueDoesNotExist");
        add("QueueNameExists",                "QueueAlreadyExists",                               400, true,  SQS + "QueueNameExists");
        add("QueueDeletedRecently",           "AWS.SimpleQueueService.QueueDeletedRecently",      400, true,  SQS + "QueueDeletedRecently");
        add("PurgeQueueInProgress",           "AWS.SimpleQueueService.PurgeQueueInProgress",      403, true,  SQS + "PurgeQueueInProgress");
        add("OverLimit",                      "OverLimit",                                        403, true,  SQS + "OverLimit");
        add("TooManyEntriesInBatchRequest",   "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400, true, SQS + "TooManyEntriesInBatchRequest");
        add("EmptyBatchRequest",              "AWS.SimpleQueueService.EmptyBatchRequest",         400, true,  SQS + "EmptyBatchRequest");
        add("BatchEntryIdsNotDistinct",       "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",  400, true,  SQS + "BatchEntryIdsNotDistinct");
        add("InvalidBatchEntryId",            "AWS.SimpleQueueService.InvalidBatchEntryId",       400, true,  SQS + "InvalidBatchEntryId");
        add("BatchRequestTooLong",            "AWS.SimpleQueueService.BatchRequestTooLong",       400, true,  SQS + "BatchRequestTooLong");
        add("MessageNotInflight",             "AWS.SimpleQueueService.MessageNotInflight",        400, true,  SQS + "MessageNotInflight");
        add("UnsupportedOperation",           "AWS.SimpleQueueService.UnsupportedOperation",      400, true,  SQS + "UnsupportedOperation");
        add("ResourceNotFoundException",      "ResourceNotFoundException",                        404, true,  SQS + "ResourceNotFoundException");
        add("MissingRequiredParameterException", "MissingParameter",                              400, true,  SQS + "MissingRequiredParameterException");
        add("MissingParameter",               "MissingParameter",                                 400, true,  SQS + "MissingRequiredParameterException");
        add("InvalidParameterValue",          "InvalidParameterValue",                            400, true,  SQS + "InvalidParameterValueException");
        add("InvalidParameterValueException", "InvalidParameterValue",                            400, true,  SQS + "InvalidParameterValueException");
        add("InvalidAttributeName",           "InvalidAttributeName",                             400, true,  SQS + "InvalidAttributeName");
        add("InvalidAttributeValue",          "InvalidAttributeValue",                            400, true,  SQS + "InvalidAttributeValue");
        add("InvalidMessageContents",         "InvalidMessageContents",                           400, true,  SQS + "InvalidMessageContents");
        add("ReceiptHandleIsInvalid",         "ReceiptHandleIsInvalid",                           400, true,  SQS + "ReceiptHandleIsInvalid");
        add("InvalidIdFormat",                "InvalidIdFormat",                                  400, true,  SQS + "InvalidIdFormat");
        add("InvalidAddress",                 "InvalidAddress",                                   404, true,  SQS + "InvalidAddress");
        add("InvalidSecurity",                "InvalidSecurity",                                  403, true,  SQS + "InvalidSecurity");
        add("RequestThrottled",               "RequestThrottled",                                 403, true,  SQS + "RequestThrottled");
        add("KmsAccessDenied",                "KMS.AccessDeniedException",                        400, true,  SQS + "KmsAccessDenied");
        add("KmsDisabled",                    "KMS.DisabledException",                            400, true,  SQS + "KmsDisabled");
        add("KmsInvalidKeyUsage",             "KMS.InvalidKeyUsageException",                     400, true,  SQS + "KmsInvalidKeyUsage");
        add("KmsInvalidState",                "KMS.InvalidStateException",                        400, true,  SQS + "KmsInvalidState");
        add("KmsNotFound",                    "KMS.NotFoundException",                            400, true,  SQS + "KmsNotFound");
        add("KmsOptInRequired",               "KMS.OptInRequired",                                403, true,  SQS + "KmsOptInRequired");
        add("KmsThrottled",                   "KMS.ThrottlingException",                          400, true,  SQS + "KmsThrottled");
        add("InvalidAction",                  "InvalidAction",                                    400, true,  SQS + "InvalidAction");
        add("MissingAction",                  "MissingAction",                                    400, true,  SQS + "MissingAction");
        add("MalformedQueryString",           "MalformedQueryString",                             400, true,  SQS + "MalformedQueryString");
        add("SerializationException",         "SerializationException",                           400, true,  CORAL + "SerializationException");
        add("UnknownOperationException",      "UnknownOperationException",                        400, true,  CORAL + "UnknownOperationException");
        // Authentication failures: Query codes as real SQS answers them; JSON __type as AWS's front door names them.
        add("AccessDenied",                   "AccessDenied",                                     403, true,  CORAL + "AccessDeniedException");
        add("InvalidClientTokenId",           "InvalidClientTokenId",                             403, true,  CORAL + "UnrecognizedClientException");
        add("SignatureDoesNotMatch",          "SignatureDoesNotMatch",                            403, true,  CORAL + "InvalidSignatureException");
        add("MissingAuthenticationToken",     "MissingAuthenticationToken",                       403, true,  CORAL + "MissingAuthenticationTokenException");
        add("IncompleteSignature",            "IncompleteSignature",                              400, true,  CORAL + "IncompleteSignatureException");
        add("ExpiredToken",                   "ExpiredToken",                                     403, true,  CORAL + "ExpiredTokenException");
        add("RequestExpired",                 "RequestExpired",                                   400, true,  SQS + "RequestExpired");
        add("InternalError",                  "InternalError",                                    500, false, SQS + "InternalError");
        add("InternalFailure",                "InternalFailure",                                  500, false, SQS + "InternalFailure");
        add("ServiceUnavailable",             "ServiceUnavailable",                               503, false, SQS + "ServiceUnavailable");
        // Not in SQS's model: a request body over the server's limit, refused before it is read (SQS's
        // front end answers such a request 413 in plain text; this is the same status, SQS-shaped).
        add("RequestEntityTooLarge",          "RequestEntityTooLarge",                            413, true,  SQS + "RequestEntityTooLarge");
    }

    /** Query messages that differ from the JSON ones (sqs-behaviours.md 1). */
    private static final Map<String, String> QUERY_MESSAGES = Map.of(
            "The specified queue does not exist.", "The specified queue does not exist for this wsdl version.");

    private ErrorCatalogue() {}

    private static void add(String errorType, String queryCode, int status, boolean sender, String jsonType) {
        Entry entry = new Entry(errorType, queryCode, status, sender, jsonType);
        ENTRIES.put(errorType, entry);
        BY_QUERY_CODE.putIfAbsent(queryCode, entry);
    }

    /**
     * The entry for {@code errorType} (a JSON shape name, or failing that a Query code such as
     * {@code AWS.SimpleQueueService.NonExistentQueue}); an unknown type travels as a 400 Sender error
     * under its own name.
     */
    public static Entry lookup(String errorType) {
        String type = errorType == null || errorType.isEmpty() ? "InternalError" : errorType;
        Entry entry = ENTRIES.get(type);
        if (entry == null) {
            entry = BY_QUERY_CODE.get(type);
        }
        return entry != null ? entry : new Entry(type, type, 400, true, SQS + type);
    }

    /** The message as the Query protocol words it. */
    public static String queryMessage(String errorType, String message) {
        if (message == null) {
            return "";
        }
        if ("QueueDoesNotExist".equals(errorType)) {
            return QUERY_MESSAGES.getOrDefault(message, message);
        }
        return message;
    }
}
