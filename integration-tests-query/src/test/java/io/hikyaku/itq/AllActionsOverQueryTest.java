package io.hikyaku.itq;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest;
import com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesResult;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksRequest;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksResultEntry;
import com.amazonaws.services.sqs.model.ListQueuesRequest;
import com.amazonaws.services.sqs.model.ListQueuesResult;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.PurgeQueueRequest;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageBatchResult;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest;
import com.amazonaws.services.sqs.model.CancelMessageMoveTaskRequest;
import io.hikyaku.itq.support.QueryTestBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every one of the 23 SQS actions through the Query/XML protocol of the AWS SDK for Java v1, with
 * the SDK's own MD5 checks on, asserting what each answer says; finally that the client really sent
 * all 23 as Query actions.
 */
class AllActionsOverQueryTest extends QueryTestBase {

    private static final Set<String> ALL_ACTIONS = Set.of(
            "AddPermission", "RemovePermission", "CreateQueue", "DeleteQueue", "GetQueueUrl", "ListQueues",
            "GetQueueAttributes", "SetQueueAttributes", "PurgeQueue", "ListQueueTags", "TagQueue", "UntagQueue",
            "ListDeadLetterSourceQueues", "SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage",
            "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch",
            "StartMessageMoveTask", "ListMessageMoveTasks", "CancelMessageMoveTask");

    @Test
    void everyActionWorksOverQuery() {
        // CreateQueue, GetQueueUrl, ListQueues (prefix + pagination)
        String name = unique("all");
        String url = sqs.createQueue(new CreateQueueRequest(name).withAttributes(Map.of("VisibilityTimeout", "30"))).getQueueUrl();
        assertThat(url).isEqualTo(endpoint + "/" + ACCOUNT + "/" + name);
        assertThat(sqs.createQueue(new CreateQueueRequest(name).withAttributes(Map.of("VisibilityTimeout", "30"))).getQueueUrl())
                .as("idempotent create").isEqualTo(url);
        assertThat(sqs.getQueueUrl(name).getQueueUrl()).isEqualTo(url);
        List<String> pages = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sqs.createQueue("page-" + i);
        }
        ListQueuesResult page = sqs.listQueues(new ListQueuesRequest("page-").withMaxResults(2));
        assertThat(page.getQueueUrls()).hasSize(2);
        assertThat(page.getNextToken()).isNotBlank();
        pages.addAll(page.getQueueUrls());
        page = sqs.listQueues(new ListQueuesRequest("page-").withMaxResults(2).withNextToken(page.getNextToken()));
        pages.addAll(page.getQueueUrls());
        assertThat(page.getNextToken()).isNull();
        assertThat(pages).containsExactlyInAnyOrder(
                endpoint + "/" + ACCOUNT + "/page-0", endpoint + "/" + ACCOUNT + "/page-1", endpoint + "/" + ACCOUNT + "/page-2");

        // SetQueueAttributes, GetQueueAttributes
        sqs.setQueueAttributes(url, Map.of("DelaySeconds", "0", "MaximumMessageSize", "2048"));
        Map<String, String> attrs = sqs.getQueueAttributes(url, List.of("All")).getAttributes();
        assertThat(attrs).containsEntry("MaximumMessageSize", "2048").containsEntry("VisibilityTimeout", "30")
                .containsEntry("QueueArn", arn(name)).containsEntry("SqsManagedSseEnabled", "true")
                .containsKeys("CreatedTimestamp", "LastModifiedTimestamp", "ApproximateNumberOfMessages");

        // TagQueue, ListQueueTags, UntagQueue
        sqs.tagQueue(url, Map.of("team", "core", "env", "test"));
        sqs.tagQueue(url, Map.of("env", "ci"));
        assertThat(sqs.listQueueTags(url).getTags()).isEqualTo(Map.of("team", "core", "env", "ci"));
        sqs.untagQueue(url, List.of("team"));
        assertThat(sqs.listQueueTags(url).getTags()).isEqualTo(Map.of("env", "ci"));

        // AddPermission, RemovePermission: the Policy attribute as SQS writes it
        sqs.addPermission(url, "readers", List.of("111122223333"), List.of("ReceiveMessage", "SendMessage"));
        String policy = sqs.getQueueAttributes(url, List.of("Policy")).getAttributes().get("Policy");
        assertThat(policy).contains("\"Sid\":\"readers\"").contains("arn:aws:iam::111122223333:root")
                .contains("SQS:ReceiveMessage").contains("SQS:SendMessage").contains("\"Resource\":\"" + arn(name) + "\"");
        sqs.removePermission(url, "readers");
        assertThat(sqs.getQueueAttributes(url, List.of("Policy")).getAttributes()).doesNotContainKey("Policy");

        // SendMessage (SDK checks MD5 of body and attributes), SendMessageBatch
        SendMessageResult sent = sqs.sendMessage(new SendMessageRequest(url, "hello query"));
        assertThat(sent.getMessageId()).isNotBlank();
        assertThat(sent.getMD5OfMessageBody()).isEqualTo(md5("hello query"));
        List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            entries.add(new SendMessageBatchRequestEntry("e" + i, "batch-" + i));
        }
        SendMessageBatchResult batch = sqs.sendMessageBatch(url, entries);
        assertThat(batch.getSuccessful()).extracting(e -> e.getId()).containsExactlyInAnyOrder("e0", "e1", "e2", "e3");
        assertThat(batch.getFailed()).isEmpty();

        // ReceiveMessage, ChangeMessageVisibility, ChangeMessageVisibilityBatch, DeleteMessage, DeleteMessageBatch
        List<Message> got = receiveAll(url, 5);
        assertThat(got).extracting(Message::getBody)
                .containsExactlyInAnyOrder("hello query", "batch-0", "batch-1", "batch-2", "batch-3");
        assertThat(got).allSatisfy(m -> assertThat(m.getAttributes()).containsEntry("ApproximateReceiveCount", "1")
                .containsKeys("SentTimestamp", "SenderId", "ApproximateFirstReceiveTimestamp"));
        assertThat(count(url, "ApproximateNumberOfMessagesNotVisible")).isEqualTo(5);
        sqs.changeMessageVisibility(url, got.get(0).getReceiptHandle(), 0);
        assertThat(sqs.changeMessageVisibilityBatch(url, List.of(
                new ChangeMessageVisibilityBatchRequestEntry("c1", got.get(1).getReceiptHandle()).withVisibilityTimeout(0),
                new ChangeMessageVisibilityBatchRequestEntry("c2", got.get(2).getReceiptHandle()).withVisibilityTimeout(600)))
                .getSuccessful()).extracting(e -> e.getId()).containsExactlyInAnyOrder("c1", "c2");
        assertThat(count(url, "ApproximateNumberOfMessages")).isEqualTo(2);
        sqs.deleteMessage(url, got.get(3).getReceiptHandle());
        assertThat(sqs.deleteMessageBatch(url, List.of(new DeleteMessageBatchRequestEntry("d4", got.get(4).getReceiptHandle()),
                new DeleteMessageBatchRequestEntry("d2", got.get(2).getReceiptHandle()))).getSuccessful())
                .extracting(e -> e.getId()).containsExactlyInAnyOrder("d4", "d2");
        assertThat(count(url, "ApproximateNumberOfMessages")).isEqualTo(2);
        assertThat(count(url, "ApproximateNumberOfMessagesNotVisible")).isZero();

        // PurgeQueue
        sqs.purgeQueue(new PurgeQueueRequest(url));
        assertThat(count(url, "ApproximateNumberOfMessages")).isZero();

        // Dead letters: ListDeadLetterSourceQueues, then StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask
        String dlqName = unique("all-dlq");
        String dlq = sqs.createQueue(dlqName).getQueueUrl();
        String srcName = unique("all-src");
        String src = sqs.createQueue(new CreateQueueRequest(srcName).withAttributes(Map.of("RedrivePolicy",
                "{\"deadLetterTargetArn\":\"" + arn(dlqName) + "\",\"maxReceiveCount\":\"1\"}"))).getQueueUrl();
        ListDeadLetterSourceQueuesResult sources = sqs.listDeadLetterSourceQueues(new ListDeadLetterSourceQueuesRequest().withQueueUrl(dlq));
        assertThat(sources.getQueueUrls()).containsExactly(src);
        for (int i = 0; i < 6; i++) {
            sqs.sendMessage(src, "dead-" + i);
        }
        for (int round = 0; round < 20 && count(dlq, "ApproximateNumberOfMessages") < 6; round++) {
            sqs.receiveMessage(new ReceiveMessageRequest(src).withMaxNumberOfMessages(10).withVisibilityTimeout(0));
        }
        assertThat(count(dlq, "ApproximateNumberOfMessages")).as("dead letters").isEqualTo(6);
        Message dead = sqs.receiveMessage(new ReceiveMessageRequest(dlq).withAttributeNames("All").withVisibilityTimeout(0))
                .getMessages().get(0);
        assertThat(dead.getAttributes()).containsEntry("DeadLetterQueueSourceArn", arn(srcName));

        String handle = sqs.startMessageMoveTask(new StartMessageMoveTaskRequest().withSourceArn(arn(dlqName))
                .withMaxNumberOfMessagesPerSecond(1)).getTaskHandle();
        assertThat(handle).isNotBlank();
        ListMessageMoveTasksResultEntry running = sqs.listMessageMoveTasks(new ListMessageMoveTasksRequest()
                .withSourceArn(arn(dlqName))).getResults().get(0);
        assertThat(running.getStatus()).isEqualTo("RUNNING");
        assertThat(running.getTaskHandle()).isEqualTo(handle);
        assertThat(running.getSourceArn()).isEqualTo(arn(dlqName));
        assertThat(running.getMaxNumberOfMessagesPerSecond()).isEqualTo(1);
        assertThat(running.getApproximateNumberOfMessagesToMove()).isEqualTo(6L);
        advance(Duration.ofSeconds(2));
        long moved = sqs.cancelMessageMoveTask(new CancelMessageMoveTaskRequest().withTaskHandle(handle))
                .getApproximateNumberOfMessagesMoved();
        assertThat(moved).isBetween(1L, 5L);
        ListMessageMoveTasksResultEntry ended = sqs.listMessageMoveTasks(new ListMessageMoveTasksRequest()
                .withSourceArn(arn(dlqName)).withMaxResults(10)).getResults().get(0);
        assertThat(ended.getStatus()).isIn("CANCELLING", "CANCELLED");
        assertThat(count(src, "ApproximateNumberOfMessages")).as("moved back to the source").isEqualTo((int) moved);

        // DeleteQueue
        sqs.deleteQueue(url);
        assertThat(sqs.listQueues(name).getQueueUrls()).isEmpty();

        assertThat(wire.actions()).containsExactlyInAnyOrderElementsOf(ALL_ACTIONS);
        assertThat(wire.violations()).isEmpty();
    }

    private List<Message> receiveAll(String url, int n) {
        List<Message> out = new ArrayList<>();
        for (int round = 0; round < 10 && out.size() < n; round++) {
            out.addAll(sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)
                    .withAttributeNames("All").withMessageAttributeNames("All")).getMessages());
        }
        return out;
    }

    private int count(String url, String attribute) {
        return Integer.parseInt(sqs.getQueueAttributes(url, List.of(attribute)).getAttributes().get(attribute));
    }

    static String md5(String s) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("MD5").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return String.format("%032x", new java.math.BigInteger(1, d));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
