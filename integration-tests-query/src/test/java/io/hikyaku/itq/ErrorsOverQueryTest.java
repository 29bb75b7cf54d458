package io.hikyaku.itq;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksRequest;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.PurgeQueueRequest;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest;
import io.hikyaku.itq.support.QueryTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Errors as SDK v1 reports them over Query: the legacy Query code (not the JSON type), HTTP status,
 * message and Sender fault; and that a failed request changes nothing.
 */
class ErrorsOverQueryTest extends QueryTestBase {

    @Test
    void unknownQueuesAnswerNonExistentQueueForEveryAction() {
        String missing = endpoint + "/" + ACCOUNT + "/no-such-queue";
        String code = "AWS.SimpleQueueService.NonExistentQueue";
        String message = "The specified queue does not exist for this wsdl version.";
        assertError(() -> sqs.getQueueUrl("no-such-queue"), code, 400, message);
        assertError(() -> sqs.getQueueAttributes(missing, List.of("All")), code, 400, message);
        assertError(() -> sqs.sendMessage(missing, "x"), code, 400, message);
        assertError(() -> sqs.sendMessageBatch(missing, List.of(new SendMessageBatchRequestEntry("a", "x"))), code, 400, message);
        assertError(() -> sqs.receiveMessage(missing), code, 400, message);
        assertError(() -> sqs.deleteQueue(missing), code, 400, message);
        assertError(() -> sqs.listQueueTags(missing), code, 400, message);
        assertError(() -> sqs.tagQueue(missing, Map.of("a", "b")), code, 400, message);
        assertError(() -> sqs.purgeQueue(new PurgeQueueRequest(missing)), code, 400, message);
    }

    @Test
    void queueCreationRules() {
        String name = unique("rules");
        sqs.createQueue(new CreateQueueRequest(name).withAttributes(Map.of("DelaySeconds", "1")));
        assertError(() -> sqs.createQueue(new CreateQueueRequest(name).withAttributes(Map.of("DelaySeconds", "2"))),
                "QueueAlreadyExists", 400,
                "A queue already exists with the same name and a different value for attribute DelaySeconds");
        assertError(() -> sqs.createQueue(new CreateQueueRequest(unique("std")).withAttributes(Map.of("FifoQueue", "false"))),
                "InvalidAttributeName", 400, "Unknown Attribute FifoQueue.");
        assertError(() -> sqs.createQueue(new CreateQueueRequest(unique("vt")).withAttributes(Map.of("VisibilityTimeout", "43201"))),
                "InvalidAttributeValue", 400, null);
        assertError(() -> sqs.createQueue("bad name!"), "InvalidParameterValue", 400, null);
        String gone = unique("gone");
        sqs.deleteQueue(sqs.createQueue(gone).getQueueUrl());
        assertError(() -> sqs.createQueue(gone), "AWS.SimpleQueueService.QueueDeletedRecently", 400,
                "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
    }

    @Test
    void batchRequestErrors() {
        String url = sqs.createQueue(unique("batch")).getQueueUrl();
        List<SendMessageBatchRequestEntry> many = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            many.add(new SendMessageBatchRequestEntry("e" + i, "x"));
        }
        assertError(() -> sqs.sendMessageBatch(url, many), "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400,
                "Maximum number of entries per request are 10. You have sent 11.");
        assertError(() -> sqs.sendMessageBatch(url, List.of()), "AWS.SimpleQueueService.EmptyBatchRequest", 400,
                "There should be at least one SendMessageBatchRequestEntry in the request.");
        assertError(() -> sqs.sendMessageBatch(url, List.of(new SendMessageBatchRequestEntry("id_1", "a"),
                new SendMessageBatchRequestEntry("id_2", "b"), new SendMessageBatchRequestEntry("id_2", "c"))),
                "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", 400, "Id id_2 repeated.");
        assertError(() -> sqs.deleteMessageBatch(url, List.of(new DeleteMessageBatchRequestEntry("invalid:id", "h"))),
                "AWS.SimpleQueueService.InvalidBatchEntryId", 400,
                "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.");
        List<SendMessageBatchRequestEntry> huge = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            huge.add(new SendMessageBatchRequestEntry("h" + i, "y".repeat(524_288 + i)));
        }
        assertError(() -> sqs.sendMessageBatch(url, huge), "AWS.SimpleQueueService.BatchRequestTooLong", 400,
                "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.");
        assertThat(count(url)).as("nothing of a failed batch is stored").isZero();
    }

    @Test
    void receiptHandleAndVisibilityErrors() {
        String url = sqs.createQueue(unique("handles")).getQueueUrl();
        assertError(() -> sqs.changeMessageVisibility(url, "INVALID", 10), "ReceiptHandleIsInvalid", 400, null);
        assertError(() -> sqs.deleteMessage(url, "INVALID"), "ReceiptHandleIsInvalid", 400, null);
        sqs.sendMessage(url, "once");
        Message m = sqs.receiveMessage(url).getMessages().get(0);
        sqs.changeMessageVisibility(url, m.getReceiptHandle(), 0);
        Message second = sqs.receiveMessage(url).getMessages().get(0);
        sqs.changeMessageVisibility(url, second.getReceiptHandle(), 0);
        // an older receive's handle of a message that is not in flight (the latest one still works: behaviour 81)
        assertError(() -> sqs.changeMessageVisibility(url, m.getReceiptHandle(), 10),
                "AWS.SimpleQueueService.MessageNotInflight", 400, null);
        Message again = sqs.receiveMessage(url).getMessages().get(0);
        sqs.deleteMessage(url, again.getReceiptHandle());
        sqs.deleteMessage(url, again.getReceiptHandle()); // a repeated delete of a used handle succeeds
        assertError(() -> sqs.changeMessageVisibility(url, again.getReceiptHandle(), 10), "InvalidParameterValue", 400,
                "Value " + again.getReceiptHandle() + " for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.");
        assertThat(sqs.changeMessageVisibilityBatch(url, List.of(new ChangeMessageVisibilityBatchRequestEntry("c", "INVALID")
                .withVisibilityTimeout(1))).getFailed()).singleElement()
                .satisfies(f -> assertThat(f.getCode()).isEqualTo("ReceiptHandleIsInvalid"));
        assertError(() -> sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(11)),
                "InvalidParameterValue", 400, null);
        assertError(() -> sqs.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(21)),
                "InvalidParameterValue", 400, null);
    }

    @Test
    void purgeOncePerMinuteAndFifoRules() {
        String name = unique("purge");
        String url = sqs.createQueue(name).getQueueUrl();
        sqs.purgeQueue(new PurgeQueueRequest(url));
        assertError(() -> sqs.purgeQueue(new PurgeQueueRequest(url)), "AWS.SimpleQueueService.PurgeQueueInProgress", 403,
                "Only one PurgeQueue operation on " + name + " is allowed every 60 seconds.");
        String fifo = sqs.createQueue(new CreateQueueRequest(unique("f") + ".fifo").withAttributes(Map.of("FifoQueue", "true")))
                .getQueueUrl();
        assertError(() -> sqs.sendMessage(new SendMessageRequest(fifo, "x").withMessageGroupId("g")), "InvalidParameterValue", 400,
                "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
        assertError(() -> sqs.sendMessageBatch(fifo, List.of(new SendMessageBatchRequestEntry("a", "x")
                .withMessageDeduplicationId("d"))), "InvalidParameterValue", 400,
                "The request must contain the parameter MessageGroupId.");
        assertError(() -> sqs.sendMessage(new SendMessageRequest(fifo, "x").withMessageGroupId("g")
                .withMessageDeduplicationId("d").withDelaySeconds(5)), "InvalidParameterValue", 400, null);
    }

    @Test
    void moveTaskErrors() {
        String plain = unique("not-a-dlq");
        sqs.createQueue(plain);
        assertError(() -> sqs.startMessageMoveTask(new StartMessageMoveTaskRequest().withSourceArn(arn(plain))),
                "InvalidParameterValue", 400, null);
        assertError(() -> sqs.startMessageMoveTask(new StartMessageMoveTaskRequest().withSourceArn(arn("absent"))),
                "ResourceNotFoundException", 404, null);
        assertError(() -> sqs.listMessageMoveTasks(new ListMessageMoveTasksRequest().withSourceArn(arn("absent"))),
                "ResourceNotFoundException", 404, null);
    }

    private int count(String url) {
        return Integer.parseInt(sqs.getQueueAttributes(url, List.of("ApproximateNumberOfMessages"))
                .getAttributes().get("ApproximateNumberOfMessages"));
    }
}
