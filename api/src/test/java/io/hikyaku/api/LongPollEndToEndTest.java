package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LongPollEndToEndTest {

    private final ServiceHarness sqs = new ServiceHarness();

    @AfterEach
    void close() {
        sqs.close();
    }

    private CompletableFuture<ObjectNode> longPoll(String url, int seconds) {
        return sqs.start("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":" + seconds + "}");
    }

    private int parked() {
        return ((DefaultSqsService) sqs.service).parkedReceives();
    }

    @Test
    void aSendWakesAParkedReceive() {
        String url = sqs.createQueue("lp", null);
        CompletableFuture<ObjectNode> waiting = longPoll(url, 20);
        assertThat(waiting).isNotDone();
        assertThat(parked()).isEqualTo(1);
        sqs.send(url, "wake up");
        ObjectNode got = ServiceHarness.await(waiting);
        assertThat(got.get("Messages").get(0).get("Body").asText()).isEqualTo("wake up");
        assertThat(parked()).isZero();
    }

    @Test
    void theWaitEndsEmptyWhenTheFakeClockPassesTheDeadline() throws Exception {
        String url = sqs.createQueue("expire", null);
        CompletableFuture<ObjectNode> waiting = longPoll(url, 5);
        sqs.clock.advance(Duration.ofSeconds(4));
        Thread.sleep(100);
        assertThat(waiting).isNotDone();
        sqs.clock.advance(Duration.ofSeconds(1));
        ObjectNode got = ServiceHarness.await(waiting);
        assertThat(got.has("Messages")).isFalse();
        assertThat(got.isEmpty()).isTrue();
    }

    @Test
    void theQueueWaitTimeAttributeIsTheDefault() throws Exception {
        String url = sqs.createQueue("qwait", "{\"ReceiveMessageWaitTimeSeconds\":\"3\"}");
        CompletableFuture<ObjectNode> waiting = sqs.start("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}");
        Thread.sleep(60);
        assertThat(waiting).isNotDone();
        sqs.clock.advance(Duration.ofSeconds(3));
        assertThat(ServiceHarness.await(waiting).has("Messages")).isFalse();
        // An explicit WaitTimeSeconds=0 overrides the queue's default: a short poll.
        assertThat(ServiceHarness.await(longPoll(url, 0)).has("Messages")).isFalse();
    }

    @Test
    void aVisibilityExpiryDrivenByTheTimerThreadWakesAWaiter() {
        String url = sqs.createQueue("vis", null);
        sqs.send(url, "again");
        assertThat(sqs.receive(url, "\"VisibilityTimeout\":5").get("Messages")).hasSize(1);
        CompletableFuture<ObjectNode> waiting = longPoll(url, 20);
        assertThat(waiting).isNotDone();
        sqs.clock.advance(Duration.ofSeconds(6));
        ObjectNode got = ServiceHarness.await(waiting);
        assertThat(got.get("Messages").get(0).get("Body").asText()).isEqualTo("again");
    }

    @Test
    void aDelayedMessageWakesAWaiterWhenItsDelayEnds() {
        String url = sqs.createQueue("delay", null);
        sqs.call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"later\",\"DelaySeconds\":3}");
        CompletableFuture<ObjectNode> waiting = longPoll(url, 20);
        assertThat(waiting).isNotDone();
        sqs.clock.advance(Duration.ofSeconds(3));
        assertThat(ServiceHarness.await(waiting).get("Messages").get(0).get("Body").asText()).isEqualTo("later");
    }

    @Test
    void deletingTheQueueAnswersItsWaitersEmpty() {
        String url = sqs.createQueue("doomed", null);
        CompletableFuture<ObjectNode> waiting = longPoll(url, 20);
        sqs.call("DeleteQueue", "{\"QueueUrl\":\"" + url + "\"}");
        assertThat(ServiceHarness.await(waiting).isEmpty()).isTrue();
    }

    @Test
    void waitersAreServedOldestFirstAndOnlyAsManyAsThereAreMessages() {
        String url = sqs.createQueue("many", null);
        List<CompletableFuture<ObjectNode>> waiters = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            waiters.add(longPoll(url, 20));
        }
        assertThat(parked()).isEqualTo(50);
        sqs.send(url, "one");
        assertThat(ServiceHarness.await(waiters.get(0)).get("Messages")).hasSize(1);
        assertThat(waiters.subList(1, 50)).allMatch(f -> !f.isDone());
        assertThat(parked()).isEqualTo(49);
        sqs.clock.advance(Duration.ofSeconds(20));
        for (CompletableFuture<ObjectNode> f : waiters.subList(1, 50)) {
            assertThat(ServiceHarness.await(f).has("Messages")).isFalse();
        }
    }

    @Test
    void closingTheServiceReleasesWaiters() {
        String url = sqs.createQueue("closing", null);
        CompletableFuture<ObjectNode> waiting = longPoll(url, 20);
        sqs.service.close();
        assertThat(ServiceHarness.await(waiting).isEmpty()).isTrue();
    }

    @Test
    void aStopAnswersParkedWaitersAtOnceAndLaterReceivesDoNotParkWhileWritesStillWork() {
        String url = sqs.createQueue("stopping", null);
        CompletableFuture<ObjectNode> first = longPoll(url, 20);
        CompletableFuture<ObjectNode> second = longPoll(url, 20);
        assertThat(parked()).isEqualTo(2);

        assertThat(sqs.service.beginStop()).isEqualTo(2); // the fake clock never moves: only the stop answers them
        assertThat(ServiceHarness.await(first).isEmpty()).isTrue();
        assertThat(ServiceHarness.await(second).isEmpty()).isTrue();

        assertThat(ServiceHarness.await(longPoll(url, 20)).isEmpty()).isTrue(); // answered, not parked
        assertThat(parked()).isZero();
        sqs.send(url, "in flight at the stop");
        assertThat(sqs.receive(url, null).get("Messages")).hasSize(1);
    }

    @Test
    void aCancelledWaitDoesNotConsumeMessages() {
        String url = sqs.createQueue("cancel", null);
        CompletableFuture<ObjectNode> gone = longPoll(url, 20);
        gone.cancel(false); // the client disconnected
        CompletableFuture<ObjectNode> next = longPoll(url, 20);
        sqs.send(url, "for the live one");
        assertThat(ServiceHarness.await(next).get("Messages").get(0).get("Body").asText()).isEqualTo("for the live one");
    }

    @Test
    void tenThousandParkedReceivesHoldNoThreads() {
        String url = sqs.createQueue("crowd", null);
        int threadsBefore = Thread.activeCount();
        List<CompletableFuture<ObjectNode>> waiters = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            waiters.add(longPoll(url, 20));
        }
        assertThat(parked()).isEqualTo(10_000);
        assertThat(Thread.activeCount()).isLessThanOrEqualTo(threadsBefore + 1);
        sqs.clock.advance(Duration.ofSeconds(20));
        CompletableFuture.allOf(waiters.toArray(new CompletableFuture[0])).orTimeout(15, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(waiters).allMatch(f -> f.join().isEmpty());
        assertThat(parked()).isZero();
    }

    @Test
    void aBurstOfExpiriesIsAnsweredInRoundsAndAWakeUpGoesThroughMeanwhile() throws Exception {
        String crowd = sqs.createQueue("burst", null);
        String other = sqs.createQueue("lonely", null);
        List<CompletableFuture<ObjectNode>> waiters = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            waiters.add(longPoll(crowd, 5));
        }
        CompletableFuture<ObjectNode> lonely = longPoll(other, 20);
        sqs.clock.advance(Duration.ofSeconds(5)); // 10,000 waits end at once
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (waiters.stream().noneMatch(CompletableFuture::isDone) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        sqs.send(other, "now"); // the burst has begun: 8 answers per timer round of >= 1 ms, >= 1.25 s in all
        ObjectNode got = ServiceHarness.await(lonely);
        long answered = waiters.stream().filter(CompletableFuture::isDone).count();
        assertThat(got.get("Messages").get(0).get("Body").asText()).isEqualTo("now");
        assertThat(answered).as("answered when the wake-up went through").isBetween(1L, 9_999L);
        CompletableFuture.allOf(waiters.toArray(new CompletableFuture[0])).orTimeout(20, java.util.concurrent.TimeUnit.SECONDS).join();
        assertThat(waiters).allMatch(f -> f.join().isEmpty());
        assertThat(parked()).isZero();
    }
}
