package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Long polling: a parked ReceiveMessage wakes on a send, on ChangeMessageVisibility(0) and on clock-driven
 * visibility changes. Waits are 1-2 s at most; where a poll must run out, the fake clock is also pushed past the
 * wait so the test passes whether the server measures the wait on the wall clock or on its clock.
 */
class LongPollTest extends SqsTestBase {
    /**
     * A poll parked for 2 s and woken 0.3 s in must answer well before its 2 s run out; the margin is wide because
     * the build machine is shared and often loaded.
     */
    static final long WOKEN_WITHIN_MILLIS = 1600;
    private final ExecutorService pool = Executors.newFixedThreadPool(6);

    @AfterEach
    void releaseParkedPolls() {
        advance(Duration.ofSeconds(21));
    }

    @AfterAll
    void stopPool() {
        pool.shutdownNow();
    }

    private <T> Future<T> async(Callable<T> call) {
        return pool.submit(call);
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    /**
     * Pushes the fake clock past any wait of at most {@code seconds}, again every 300 ms until every future is done
     * (bounded): a poll that parks late, after one push, would otherwise wait for a clock that never moves again.
     */
    private void expireWaitsUntilDone(int seconds, Future<?>... futures) {
        pool.submit(() -> {
            for (int i = 0; i < 30 && !java.util.Arrays.stream(futures).allMatch(Future::isDone); i++) {
                sleep(300);
                advance(Duration.ofSeconds(seconds + 1));
            }
        });
    }

    private Future<List<Message>> poll(String url, int waitSeconds) {
        return async(() -> sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(waitSeconds).maxNumberOfMessages(10)).messages());
    }

    @Test
    void b42_emptyLongPollHasNoMessagesKey() throws Exception {
        String url = createQueue(unique("lp-empty"));
        long start = System.nanoTime();
        var call = async(() -> http.json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":1}"));
        expireWaitsUntilDone(1, call);
        var raw = await(call);
        assertThat(raw.status()).isEqualTo(200);
        assertThat(Json.parse(raw.body()).has("Messages")).isFalse();
        assertThat(elapsedMillis(start)).isLessThan(5000);
    }

    @Test
    void wakesUpOnSend_v2() throws Exception {
        String url = createQueue(unique("lp-send"));
        Future<List<Message>> parked = poll(url, 2);
        sleep(300);
        long sentAt = System.nanoTime();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("wake up"));
        List<Message> got = await(parked);
        assertThat(got).extracting(Message::body).containsExactly("wake up");
        assertThat(elapsedMillis(sentAt)).as("woken by the send, not by the wait running out").isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void wakesUpOnSend_v1() throws Exception {
        String url = sqsV1.createQueue(unique("lp-send1")).getQueueUrl();
        var parked = async(() -> sqsV1.receiveMessage(new com.amazonaws.services.sqs.model.ReceiveMessageRequest(url)
                .withWaitTimeSeconds(2)).getMessages());
        sleep(300);
        long sentAt = System.nanoTime();
        sqsV1.sendMessage(url, "v1 wake");
        assertThat(await(parked)).extracting(com.amazonaws.services.sqs.model.Message::getBody).containsExactly("v1 wake");
        assertThat(elapsedMillis(sentAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void wakesUpOnSendToFifoQueue() throws Exception {
        String url = createFifoQueue(uniqueFifo("lp"), Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        Future<List<Message>> parked = poll(url, 2);
        sleep(300);
        long sentAt = System.nanoTime();
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("fifo wake").messageGroupId("g"));
        assertThat(await(parked)).extracting(Message::body).containsExactly("fifo wake");
        assertThat(elapsedMillis(sentAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void wakesUpOnChangeMessageVisibilityToZero() throws Exception {
        String url = createQueue(unique("lp-cmv"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("released"));
        String handle = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
        Future<List<Message>> parked = poll(url, 2);
        sleep(300);
        long changedAt = System.nanoTime();
        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(handle).visibilityTimeout(0));
        assertThat(await(parked)).extracting(Message::body).containsExactly("released");
        assertThat(elapsedMillis(changedAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void wakesUpWhenADelayedMessageBecomesVisibleOnTheClock() throws Exception {
        String url = createQueue(unique("lp-delay"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("delayed").delaySeconds(60));
        Future<List<Message>> parked = poll(url, 2);
        sleep(300);
        long advancedAt = System.nanoTime();
        clock.advance(Duration.ofSeconds(60));
        assertThat(await(parked)).extracting(Message::body).containsExactly("delayed");
        assertThat(elapsedMillis(advancedAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void wakesUpWhenAnInFlightMessageExpiresOnTheClock() throws Exception {
        String url = createQueue(unique("lp-expire"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("expired"));
        sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(100));
        Future<List<Message>> parked = poll(url, 2);
        sleep(300);
        long advancedAt = System.nanoTime();
        clock.advance(Duration.ofSeconds(100));
        assertThat(await(parked)).extracting(Message::body).containsExactly("expired");
        assertThat(elapsedMillis(advancedAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void queueReceiveMessageWaitTimeSecondsIsTheDefaultWait() throws Exception {
        String url = createQueue(unique("lp-default"), Map.of(QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, "2"));
        Future<List<Message>> parked = async(() -> sqs.receiveMessage(b -> b.queueUrl(url)).messages());
        sleep(300);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("default wait"));
        assertThat(await(parked)).extracting(Message::body).containsExactly("default wait");
        // an explicit WaitTimeSeconds=0 is a short poll
        long start = System.nanoTime();
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(0)).messages()).isEmpty();
        assertThat(elapsedMillis(start)).isLessThan(800);
    }

    @Test
    void oneMessageGoesToOneOfTwoParkedPolls() throws Exception {
        String url = createQueue(unique("lp-two"));
        Future<List<Message>> a = poll(url, 2);
        Future<List<Message>> b = poll(url, 2);
        sleep(300);
        sqs.sendMessage(r -> r.queueUrl(url).messageBody("only one"));
        expireWaitsUntilDone(2, a, b);
        int delivered = await(a).size() + await(b).size();
        assertThat(delivered).isEqualTo(1);
    }

    @Test
    void fifoPollIgnoresALockedGroupAndWakesWhenTheLockIsReleased() throws Exception {
        String url = createFifoQueue(uniqueFifo("lp-lock"), Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("a1").messageGroupId("A"));
        String handle = sqs.receiveMessage(b -> b.queueUrl(url)).messages().get(0).receiptHandle();
        Future<List<Message>> parked = poll(url, 2);
        sleep(300);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("a2").messageGroupId("A"));
        sleep(300);
        assertThat(parked.isDone()).as("a2 is behind the in-flight a1 and must not be delivered").isFalse();
        long deletedAt = System.nanoTime();
        sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
        assertThat(await(parked)).extracting(Message::body).containsExactly("a2");
        assertThat(elapsedMillis(deletedAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void pollOnADeadLetterQueueWakesWhenAMessageIsRedriven() throws Exception {
        String dlqName = unique("lp-dlq");
        String dlq = createQueue(dlqName);
        String src = createQueue(unique("lp-src"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        sqs.sendMessage(b -> b.queueUrl(src).messageBody("poison"));
        sqs.receiveMessage(b -> b.queueUrl(src).visibilityTimeout(0));
        Future<List<Message>> parked = poll(dlq, 2);
        sleep(300);
        long movedAt = System.nanoTime();
        // this receive finds the count exhausted and moves the message to the DLQ
        assertThat(sqs.receiveMessage(b -> b.queueUrl(src)).messages()).isEmpty();
        assertThat(await(parked)).extracting(Message::body).containsExactly("poison");
        assertThat(elapsedMillis(movedAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    @Test
    void pollOnAMoveTaskDestinationWakesWhenMessagesArrive() throws Exception {
        String dlqName = unique("lp-mdlq");
        String dlq = createQueue(dlqName);
        createQueue(unique("lp-msrc"), Map.of(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(arn(dlqName), 1)));
        String destName = unique("lp-dest");
        String dest = createQueue(destName);
        sqs.sendMessage(b -> b.queueUrl(dlq).messageBody("to move"));
        Future<List<Message>> parked = poll(dest, 2);
        sleep(300);
        long startedAt = System.nanoTime();
        sqs.startMessageMoveTask(b -> b.sourceArn(arn(dlqName)).destinationArn(arn(destName)));
        // a move task runs on the server's clock: let a second pass
        clock.advance(Duration.ofSeconds(1));
        assertThat(await(parked)).extracting(Message::body).containsExactly("to move");
        assertThat(elapsedMillis(startedAt)).isLessThan(WOKEN_WITHIN_MILLIS);
    }

    private static long elapsedMillis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
