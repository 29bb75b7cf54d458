package io.hikyaku.protocol;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The catalogue's mappings, checked against sqs-behaviours.md and the Query model's error blocks. */
class ErrorCatalogueTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "QueueDoesNotExist, AWS.SimpleQueueService.NonExistentQueue, 400, Sender, com.amazonaws.sqs#QueueDoesNotExist",
            "QueueNameExists, QueueAlreadyExists, 400, Sender, com.amazonaws.sqs#QueueNameExists",
            "QueueDeletedRecently, AWS.SimpleQueueService.QueueDeletedRecently, 400, Sender, com.amazonaws.sqs#QueueDeletedRecently",
            "PurgeQueueInProgress, AWS.SimpleQueueService.PurgeQueueInProgress, 403, Sender, com.amazonaws.sqs#PurgeQueueInProgress",
            "OverLimit, OverLimit, 403, Sender, com.amazonaws.sqs#OverLimit",
            "TooManyEntriesInBatchRequest, AWS.SimpleQueueService.TooManyEntriesInBatchRequest, 400, Sender, com.amazonaws.sqs#TooManyEntriesInBatchRequest",
            "EmptyBatchRequest, AWS.SimpleQueueService.EmptyBatchRequest, 400, Sender, com.amazonaws.sqs#EmptyBatchRequest",
            "BatchEntryIdsNotDistinct, AWS.SimpleQueueService.BatchEntryIdsNotDistinct, 400, Sender, com.amazonaws.sqs#BatchEntryIdsNotDistinct",
            "InvalidBatchEntryId, AWS.SimpleQueueService.InvalidBatchEntryId, 400, Sender, com.amazonaws.sqs#InvalidBatchEntryId",
            "BatchRequestTooLong, AWS.SimpleQueueService.BatchRequestTooLong, 400, Sender, com.amazonaws.sqs#BatchRequestTooLong",
            "MessageNotInflight, AWS.SimpleQueueService.MessageNotInflight, 400, Sender, com.amazonaws.sqs#MessageNotInflight",
            "UnsupportedOperation, AWS.SimpleQueueService.UnsupportedOperation, 400, Sender, com.amazonaws.sqs#UnsupportedOperation",
            "ResourceNotFoundException, ResourceNotFoundException, 404, Sender, com.amazonaws.sqs#ResourceNotFoundException",
            "MissingRequiredParameterException, MissingParameter, 400, Sender, com.amazonaws.sqs#MissingRequiredParameterException",
            "MissingParameter, MissingParameter, 400, Sender, com.amazonaws.sqs#MissingRequiredParameterException",
            "InvalidParameterValue, InvalidParameterValue, 400, Sender, com.amazonaws.sqs#InvalidParameterValueException",
            "InvalidParameterValueException, InvalidParameterValue, 400, Sender, com.amazonaws.sqs#InvalidParameterValueException",
            "InvalidAttributeName, InvalidAttributeName, 400, Sender, com.amazonaws.sqs#InvalidAttributeName",
            "InvalidAttributeValue, InvalidAttributeValue, 400, Sender, com.amazonaws.sqs#InvalidAttributeValue",
            "InvalidMessageContents, InvalidMessageContents, 400, Sender, com.amazonaws.sqs#InvalidMessageContents",
            "ReceiptHandleIsInvalid, ReceiptHandleIsInvalid, 400, Sender, com.amazonaws.sqs#ReceiptHandleIsInvalid",
            "InvalidAction, InvalidAction, 400, Sender, com.amazonaws.sqs#InvalidAction",
            "MissingAction, MissingAction, 400, Sender, com.amazonaws.sqs#MissingAction",
            "InvalidSecurity, InvalidSecurity, 400, Sender, com.amazonaws.sqs#InvalidSecurity",
            "RequestThrottled, RequestThrottled, 400, Sender, com.amazonaws.sqs#RequestThrottled",
            "KmsThrottled, KmsThrottled, 400, Sender, com.amazonaws.sqs#KmsThrottled",
            "SerializationException, SerializationException, 400, Sender, com.amazon.coral.service#SerializationException",
            "UnknownOperationException, UnknownOperationException, 400, Sender, com.amazon.coral.service#UnknownOperationException",
            "InternalError, InternalError, 500, Receiver, com.amazonaws.sqs#InternalError",
            "ServiceUnavailable, ServiceUnavailable, 503, Receiver, com.amazonaws.sqs#ServiceUnavailable",
            "SomethingNew, SomethingNew, 400, Sender, com.amazonaws.sqs#SomethingNew"})
    void mapsErrorTypes(String type, String code, int status, String fault, String jsonType) {
        ErrorCatalogue.Entry entry = ErrorCatalogue.lookup(type);
        assertEquals(code, entry.queryCode());
        assertEquals(status, entry.status());
        assertEquals(fault, entry.fault());
        assertEquals(jsonType, entry.jsonType());
    }

    @Test
    void queryCodesFindTheirEntryToo() {
        assertEquals("QueueDoesNotExist", ErrorCatalogue.lookup("AWS.SimpleQueueService.NonExistentQueue").errorType());
        assertEquals("com.amazonaws.sqs#QueueNameExists", ErrorCatalogue.lookup("QueueAlreadyExists").jsonType());
        assertEquals(403, ErrorCatalogue.lookup("AWS.SimpleQueueService.PurgeQueueInProgress").status());
    }

    @Test
    void aMissingTypeIsAnInternalError() {
        assertEquals(500, ErrorCatalogue.lookup(null).status());
        assertEquals(500, ErrorCatalogue.lookup("").status());
    }

    @Test
    void queryMessagesDifferOnlyForTheMissingQueue() {
        assertEquals("The specified queue does not exist for this wsdl version.",
                ErrorCatalogue.queryMessage("QueueDoesNotExist", "The specified queue does not exist."));
        assertEquals("Other.", ErrorCatalogue.queryMessage("QueueDoesNotExist", "Other."));
        assertEquals("The specified queue does not exist.",
                ErrorCatalogue.queryMessage("InvalidParameterValue", "The specified queue does not exist."));
        assertEquals("", ErrorCatalogue.queryMessage("InvalidAction", null));
    }
}
