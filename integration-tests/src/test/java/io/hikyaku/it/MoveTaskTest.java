package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.ListMessageMoveTasksResultEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.ResourceNotFoundException;

/** StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask (behaviours 65-69). */
class MoveTaskTest extends SqsTestBase {

    /** A source queue whose dead letters go to a DLQ, with {@code n} messages already moved there. */
    private record Redrive(String srcName, String src, String dlqName, String dlq) {}

    private Redrive redriveWithDeadLetters(int n) {
        String dlqName = unique("mv-dlq");
        String dlq = createQueue(dlqName);
        String srcName = unique("mv-src");
        String src = createQueue(srcName, Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        for (int i = 0; i < n; i++) {
            int k = i;
            sqs.sendMessage(b -> b.queueUrl(src).messageBody("dead-" + k));
        }
        for (int round = 0; round < 2 * n + 2; round++) {
            if (sqs.receiveMessage(b -> b.queueUrl(src).maxNumberOfMessages(10).visibilityTimeout(0)).messages().isEmpty()
                    && count(src) == 0) {
                break;
            }
        }
        assertThat(count(dlq)).as("messages waiting in the DLQ").isEqualTo(n);
        return new Redrive(srcName, src, dlqName, dlq);
    }

    private int count(String url) {
        Map<String, String> a = attributes(url, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE);
        return Integer.parseInt(a.get("ApproximateNumberOfMessages")) + Integer.parseInt(a.get("ApproximateNumberOfMessagesNotVisible"));
    }

    private ListMessageMoveTasksResultEntry latestTask(String sourceArn) {
        List<ListMessageMoveTasksResultEntry> r = sqs.listMessageMoveTasks(b -> b.sourceArn(sourceArn)).results();
        assertThat(r).hasSize(1);
        return r.get(0);
    }

    /** Advances the clock a second at a time (bounded) until the latest task leaves RUNNING. */
    private ListMessageMoveTasksResultEntry awaitTaskEnd(String sourceArn) {
        ListMessageMoveTasksResultEntry t = latestTask(sourceArn);
        for (int i = 0; i < 30 && t.status().equals("RUNNING"); i++) {
            advance(Duration.ofSeconds(1));
            t = latestTask(sourceArn);
        }
        return t;
    }

    private static String handle(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void moveToAnExplicitDestinationAtTheGivenRate() {
        Redrive r = redriveWithDeadLetters(5);
        String destName = unique("mv-dest");
        String dest = createQueue(destName);
        String taskHandle = sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn(destName))
                .maxNumberOfMessagesPerSecond(1)).taskHandle();
        assertThat(taskHandle).isNotBlank();
        ListMessageMoveTasksResultEntry running = latestTask(arn(r.dlqName()));
        assertThat(running.status()).isEqualTo("RUNNING");
        assertThat(running.taskHandle()).isEqualTo(taskHandle);
        assertThat(running.sourceArn()).isEqualTo(arn(r.dlqName()));
        assertThat(running.destinationArn()).isEqualTo(arn(destName));
        assertThat(running.maxNumberOfMessagesPerSecond()).isEqualTo(1);
        assertThat(running.approximateNumberOfMessagesToMove()).isEqualTo(5L);
        assertThat(running.startedTimestamp()).isEqualTo(clock.millis());
        // one message per (fake) second: after two seconds at most three have moved
        advance(Duration.ofSeconds(1));
        advance(Duration.ofSeconds(1));
        long movedSoFar = latestTask(arn(r.dlqName())).approximateNumberOfMessagesMoved();
        for (int i = 0; i < 30 && movedSoFar == 0; i++) { // a loaded machine may run the timer late
            sleep(100);
            movedSoFar = latestTask(arn(r.dlqName())).approximateNumberOfMessagesMoved();
        }
        assertThat(movedSoFar).isBetween(1L, 3L);
        ListMessageMoveTasksResultEntry done = awaitTaskEnd(arn(r.dlqName()));
        assertThat(done.status()).isEqualTo("COMPLETED");
        assertThat(done.approximateNumberOfMessagesMoved()).isEqualTo(5L);
        assertThat(done.taskHandle()).as("only running tasks show a handle").isNull();
        assertThat(count(r.dlq())).isZero();
        List<Message> moved = sqs.receiveMessage(b -> b.queueUrl(dest).maxNumberOfMessages(10)).messages();
        assertThat(moved).extracting(Message::body).containsExactlyInAnyOrder("dead-0", "dead-1", "dead-2", "dead-3", "dead-4");
    }

    @Test
    void withoutDestinationMessagesReturnToTheirSource() {
        Redrive r = redriveWithDeadLetters(3);
        sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())));
        assertThat(awaitTaskEnd(arn(r.dlqName())).status()).isEqualTo("COMPLETED");
        List<Message> back = sqs.receiveMessage(b -> b.queueUrl(r.src()).maxNumberOfMessages(10)).messages();
        assertThat(back).extracting(Message::body).containsExactlyInAnyOrder("dead-0", "dead-1", "dead-2");
    }

    @Test
    void b65_sourceIsNotADeadLetterQueue() {
        String name = unique("mv-plain");
        createQueue(name);
        assertV2Error(() -> sqs.startMessageMoveTask(b -> b.sourceArn(arn(name))), "InvalidParameterValue",
                "Source queue must be configured as a Dead Letter Queue.");
    }

    @Test
    void b66_destinationDoesNotExist() {
        Redrive r = redriveWithDeadLetters(1);
        var e = assertV2Error(() -> sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn("mv-nowhere"))),
                "ResourceNotFoundException", 404, "The resource that you specified for the DestinationArn parameter doesn't exist.");
        assertThat(e).isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void b67_onlyOneRunningTaskPerSource_andCancel() {
        Redrive r = redriveWithDeadLetters(5);
        String taskHandle = sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn(r.srcName()))
                .maxNumberOfMessagesPerSecond(1)).taskHandle();
        assertV2Error(() -> sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn(r.srcName()))),
                "InvalidParameterValue",
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.");
        long moved = sqs.cancelMessageMoveTask(b -> b.taskHandle(taskHandle)).approximateNumberOfMessagesMoved();
        assertThat(moved).isBetween(0L, 5L);
        ListMessageMoveTasksResultEntry t = latestTask(arn(r.dlqName()));
        assertThat(t.status()).isIn("CANCELLING", "CANCELLED");
        advance(Duration.ofSeconds(1));
        assertThat(latestTask(arn(r.dlqName())).status()).isEqualTo("CANCELLED");
        // nothing moves after the cancel settles
        long settled = latestTask(arn(r.dlqName())).approximateNumberOfMessagesMoved();
        advance(Duration.ofSeconds(5));
        assertThat(count(r.dlq())).isEqualTo(5 - (int) settled);
        // a cancelled task cannot be cancelled again, and a new one may start
        assertThat(io.hikyaku.it.support.SqsErrors.v2Error(() -> sqs.cancelMessageMoveTask(b -> b.taskHandle(taskHandle)))
                .statusCode()).isBetween(400, 404);
        sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn(r.srcName())));
    }

    @Test
    void b68_cancelWithUndecodableHandle() {
        assertV2Error(() -> sqs.cancelMessageMoveTask(b -> b.taskHandle("not a handle")), "InvalidParameterValue",
                "Value for parameter TaskHandle is invalid.");
    }

    @Test
    void b69_cancelWithUnknownTaskOrSource() {
        Redrive r = redriveWithDeadLetters(1);
        assertV2Error(() -> sqs.cancelMessageMoveTask(b -> b.taskHandle(
                        handle("{\"taskId\":\"no-such-task\",\"sourceArn\":\"" + arn(r.dlqName()) + "\"}"))),
                "ResourceNotFoundException", 404, "Task does not exist.");
        assertV2Error(() -> sqs.cancelMessageMoveTask(b -> b.taskHandle(
                        handle("{\"taskId\":\"no-such-task\",\"sourceArn\":\"" + arn("mv-no-such-queue") + "\"}"))),
                "ResourceNotFoundException", 404, "The resource that you specified for the SourceArn parameter doesn't exist.");
    }

    @Test
    void rateAbove500IsRefused() {
        Redrive r = redriveWithDeadLetters(1);
        assertV2Error(() -> sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).maxNumberOfMessagesPerSecond(501)),
                "InvalidParameterValue", null);
    }

    @Test
    void listShowsTheMostRecentTaskFirstAndHonoursMaxResults() {
        Redrive r = redriveWithDeadLetters(2);
        sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn(r.srcName())));
        assertThat(awaitTaskEnd(arn(r.dlqName())).status()).isEqualTo("COMPLETED");
        // put the messages back in the DLQ and move them again
        for (int i = 0; i < 6 && count(r.dlq()) < 2; i++) {
            sqs.receiveMessage(b -> b.queueUrl(r.src()).maxNumberOfMessages(10).visibilityTimeout(0));
        }
        advance(Duration.ofSeconds(2));
        String second = sqs.startMessageMoveTask(b -> b.sourceArn(arn(r.dlqName())).destinationArn(arn(r.srcName()))
                .maxNumberOfMessagesPerSecond(1)).taskHandle();
        List<ListMessageMoveTasksResultEntry> all = sqs.listMessageMoveTasks(b -> b.sourceArn(arn(r.dlqName())).maxResults(10)).results();
        assertThat(all).hasSize(2);
        assertThat(all.get(0).status()).isEqualTo("RUNNING");
        assertThat(all.get(0).taskHandle()).isEqualTo(second);
        assertThat(all.get(1).status()).isEqualTo("COMPLETED");
        assertThat(all.get(0).startedTimestamp()).isGreaterThan(all.get(1).startedTimestamp());
        assertThat(sqs.listMessageMoveTasks(b -> b.sourceArn(arn(r.dlqName()))).results()).hasSize(1);
        assertV2Error(() -> sqs.listMessageMoveTasks(b -> b.sourceArn(arn(r.dlqName())).maxResults(11)), "InvalidParameterValue", null);
        sqs.cancelMessageMoveTask(b -> b.taskHandle(second));
    }

    @Test
    void allThreeMoveTaskActions_v1() {
        Redrive r = redriveWithDeadLetters(3);
        String taskHandle = sqsV1.startMessageMoveTask(new com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest()
                .withSourceArn(arn(r.dlqName())).withDestinationArn(arn(r.srcName())).withMaxNumberOfMessagesPerSecond(1))
                .getTaskHandle();
        var listed = sqsV1.listMessageMoveTasks(new com.amazonaws.services.sqs.model.ListMessageMoveTasksRequest()
                .withSourceArn(arn(r.dlqName())).withMaxResults(10)).getResults();
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).getStatus()).isEqualTo("RUNNING");
        assertThat(listed.get(0).getTaskHandle()).isEqualTo(taskHandle);
        var cancelled = sqsV1.cancelMessageMoveTask(new com.amazonaws.services.sqs.model.CancelMessageMoveTaskRequest()
                .withTaskHandle(taskHandle));
        assertThat(cancelled.getApproximateNumberOfMessagesMoved()).isBetween(0L, 3L);
        assertV1Error(() -> sqsV1.cancelMessageMoveTask(new com.amazonaws.services.sqs.model.CancelMessageMoveTaskRequest()
                .withTaskHandle("not a handle")), "InvalidParameterValue", "Value for parameter TaskHandle is invalid.");
        String plain = unique("mv-plain1");
        sqsV1.createQueue(plain);
        assertV1Error(() -> sqsV1.startMessageMoveTask(new com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest()
                .withSourceArn(arn(plain))), "InvalidParameterValue", "Source queue must be configured as a Dead Letter Queue.");
    }
}
