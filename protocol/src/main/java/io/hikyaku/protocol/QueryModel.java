package io.hikyaku.protocol;

import io.hikyaku.protocol.QueryShape.Field;
import io.hikyaku.protocol.QueryShape.ListOf;
import io.hikyaku.protocol.QueryShape.MapOf;
import io.hikyaku.protocol.QueryShape.Struct;

import java.util.List;
import java.util.Map;

import static io.hikyaku.protocol.QueryShape.BLOB;
import static io.hikyaku.protocol.QueryShape.SCALAR;

/**
 * The Query names of every SQS action's input and output, written from the 2012-11-05 Query
 * model (locationName and flattened info). The three message-move-task actions and
 * ReceiveMessage's MessageSystemAttributeNames are newer than that model; their names are those of
 * SQS's current Smithy model (xmlName / xmlFlattened traits), see PROTOCOL.md.
 */
final class QueryModel {

    private QueryModel() {}

    private static Field scalar(String name) {
        return new Field(name, name, SCALAR);
    }

    private static Field list(String jsonName, String itemName, QueryShape member) {
        return new Field(jsonName, itemName, new ListOf(member));
    }

    private static Field map(String jsonName, String entryName, String key, String value, QueryShape valueShape) {
        return new Field(jsonName, entryName, new MapOf(key, value, valueShape));
    }

    private static Struct struct(Field... fields) {
        return new Struct(List.of(fields));
    }

    private static final Struct MESSAGE_ATTRIBUTE_VALUE = struct(
            scalar("StringValue"), new Field("BinaryValue", "BinaryValue", BLOB),
            list("StringListValues", "StringListValue", SCALAR),
            list("BinaryListValues", "BinaryListValue", BLOB),
            scalar("DataType"));
    private static final Field QUEUE_ATTRIBUTES = map("Attributes", "Attribute", "Name", "Value", SCALAR);
    private static final Field MESSAGE_ATTRIBUTES =
            map("MessageAttributes", "MessageAttribute", "Name", "Value", MESSAGE_ATTRIBUTE_VALUE);
    private static final Field MESSAGE_SYSTEM_ATTRIBUTES =
            map("MessageSystemAttributes", "MessageSystemAttribute", "Name", "Value", MESSAGE_ATTRIBUTE_VALUE);
    private static final Field BATCH_FAILED = list("Failed", "BatchResultErrorEntry",
            struct(scalar("Id"), scalar("SenderFault"), scalar("Code"), scalar("Message")));
    private static final Field QUEUE_URL = scalar("QueueUrl");

    /** Input shape per action (all 23). */
    static final Map<String, Struct> INPUTS = Map.ofEntries(
            Map.entry("AddPermission", struct(QUEUE_URL, scalar("Label"),
                    list("AWSAccountIds", "AWSAccountId", SCALAR), list("Actions", "ActionName", SCALAR))),
            Map.entry("CancelMessageMoveTask", struct(scalar("TaskHandle"))),
            Map.entry("ChangeMessageVisibility", struct(QUEUE_URL, scalar("ReceiptHandle"), scalar("VisibilityTimeout"))),
            Map.entry("ChangeMessageVisibilityBatch", struct(QUEUE_URL,
                    list("Entries", "ChangeMessageVisibilityBatchRequestEntry",
                            struct(scalar("Id"), scalar("ReceiptHandle"), scalar("VisibilityTimeout"))))),
            Map.entry("CreateQueue", struct(scalar("QueueName"), QUEUE_ATTRIBUTES,
                    map("tags", "Tag", "Key", "Value", SCALAR))),
            Map.entry("DeleteMessage", struct(QUEUE_URL, scalar("ReceiptHandle"))),
            Map.entry("DeleteMessageBatch", struct(QUEUE_URL,
                    list("Entries", "DeleteMessageBatchRequestEntry", struct(scalar("Id"), scalar("ReceiptHandle"))))),
            Map.entry("DeleteQueue", struct(QUEUE_URL)),
            Map.entry("GetQueueAttributes", struct(QUEUE_URL, list("AttributeNames", "AttributeName", SCALAR))),
            Map.entry("GetQueueUrl", struct(scalar("QueueName"), scalar("QueueOwnerAWSAccountId"))),
            Map.entry("ListDeadLetterSourceQueues", struct(QUEUE_URL, scalar("NextToken"), scalar("MaxResults"))),
            Map.entry("ListMessageMoveTasks", struct(scalar("SourceArn"), scalar("MaxResults"))),
            Map.entry("ListQueueTags", struct(QUEUE_URL)),
            Map.entry("ListQueues", struct(scalar("QueueNamePrefix"), scalar("NextToken"), scalar("MaxResults"))),
            Map.entry("PurgeQueue", struct(QUEUE_URL)),
            Map.entry("ReceiveMessage", struct(QUEUE_URL,
                    list("AttributeNames", "AttributeName", SCALAR),
                    list("MessageSystemAttributeNames", "MessageSystemAttributeName", SCALAR),
                    list("MessageAttributeNames", "MessageAttributeName", SCALAR),
                    scalar("MaxNumberOfMessages"), scalar("VisibilityTimeout"), scalar("WaitTimeSeconds"),
                    scalar("ReceiveRequestAttemptId"))),
            Map.entry("RemovePermission", struct(QUEUE_URL, scalar("Label"))),
            Map.entry("SendMessage", struct(QUEUE_URL, scalar("MessageBody"), scalar("DelaySeconds"),
                    MESSAGE_ATTRIBUTES, MESSAGE_SYSTEM_ATTRIBUTES,
                    scalar("MessageDeduplicationId"), scalar("MessageGroupId"))),
            Map.entry("SendMessageBatch", struct(QUEUE_URL,
                    list("Entries", "SendMessageBatchRequestEntry", struct(scalar("Id"), scalar("MessageBody"),
                            scalar("DelaySeconds"), MESSAGE_ATTRIBUTES, MESSAGE_SYSTEM_ATTRIBUTES,
                            scalar("MessageDeduplicationId"), scalar("MessageGroupId"))))),
            Map.entry("SetQueueAttributes", struct(QUEUE_URL, QUEUE_ATTRIBUTES)),
            Map.entry("StartMessageMoveTask", struct(scalar("SourceArn"), scalar("DestinationArn"),
                    scalar("MaxNumberOfMessagesPerSecond"))),
            Map.entry("TagQueue", struct(QUEUE_URL, map("Tags", "Tag", "Key", "Value", SCALAR))),
            Map.entry("UntagQueue", struct(QUEUE_URL, list("TagKeys", "TagKey", SCALAR))));

    /** Output shape per action that has a {@code <Action>Result} element; the others answer with metadata only. */
    static final Map<String, Struct> OUTPUTS = Map.ofEntries(
            Map.entry("CancelMessageMoveTask", struct(scalar("ApproximateNumberOfMessagesMoved"))),
            Map.entry("ChangeMessageVisibilityBatch", struct(
                    list("Successful", "ChangeMessageVisibilityBatchResultEntry", struct(scalar("Id"))), BATCH_FAILED)),
            Map.entry("CreateQueue", struct(QUEUE_URL)),
            Map.entry("DeleteMessageBatch", struct(
                    list("Successful", "DeleteMessageBatchResultEntry", struct(scalar("Id"))), BATCH_FAILED)),
            Map.entry("GetQueueAttributes", struct(QUEUE_ATTRIBUTES)),
            Map.entry("GetQueueUrl", struct(QUEUE_URL)),
            Map.entry("ListDeadLetterSourceQueues", struct(list("queueUrls", "QueueUrl", SCALAR), scalar("NextToken"))),
            Map.entry("ListMessageMoveTasks", struct(list("Results", "ListMessageMoveTasksResultEntry", struct(
                    scalar("TaskHandle"), scalar("Status"), scalar("SourceArn"), scalar("DestinationArn"),
                    scalar("MaxNumberOfMessagesPerSecond"), scalar("ApproximateNumberOfMessagesMoved"),
                    scalar("ApproximateNumberOfMessagesToMove"), scalar("FailureReason"), scalar("StartedTimestamp"))))),
            Map.entry("ListQueueTags", struct(map("Tags", "Tag", "Key", "Value", SCALAR))),
            Map.entry("ListQueues", struct(list("QueueUrls", "QueueUrl", SCALAR), scalar("NextToken"))),
            Map.entry("ReceiveMessage", struct(list("Messages", "Message", struct(
                    scalar("MessageId"), scalar("ReceiptHandle"), scalar("MD5OfBody"), scalar("Body"),
                    QUEUE_ATTRIBUTES, scalar("MD5OfMessageAttributes"), MESSAGE_ATTRIBUTES)))),
            Map.entry("SendMessage", struct(scalar("MD5OfMessageBody"), scalar("MD5OfMessageAttributes"),
                    scalar("MD5OfMessageSystemAttributes"), scalar("MessageId"), scalar("SequenceNumber"))),
            Map.entry("SendMessageBatch", struct(list("Successful", "SendMessageBatchResultEntry", struct(
                    scalar("Id"), scalar("MessageId"), scalar("MD5OfMessageBody"), scalar("MD5OfMessageAttributes"),
                    scalar("MD5OfMessageSystemAttributes"), scalar("SequenceNumber"))), BATCH_FAILED)),
            Map.entry("StartMessageMoveTask", struct(scalar("TaskHandle"))));

    /** Service-level actions that a Query request may not send to a queue URL path (behaviour 71). */
    static final java.util.Set<String> QUEUELESS_ACTIONS = java.util.Set.of("CreateQueue", "ListQueues", "GetQueueUrl");

    static boolean isAction(String action) {
        return action != null && INPUTS.containsKey(action);
    }
}
