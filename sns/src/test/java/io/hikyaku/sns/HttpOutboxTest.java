package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The outbox on a same-thread executor and a manual timer: retry schedule, DLQ hand-off, the capacity bound. */
class HttpOutboxTest {

    /** Runs tasks on the caller's thread. */
    static final class DirectExecutor extends AbstractExecutorService {
        @Override public void execute(Runnable command) { command.run(); }
        @Override public void shutdown() { }
        @Override public List<Runnable> shutdownNow() { return List.of(); }
        @Override public boolean isShutdown() { return false; }
        @Override public boolean isTerminated() { return false; }
        @Override public boolean awaitTermination(long timeout, TimeUnit unit) { return true; }
    }

    private final List<Long> delays = new ArrayList<>();
    private final List<Runnable> waiting = new ArrayList<>();
    private final List<String> parked = new ArrayList<>();
    private final SnsTopicMetrics metrics = new SnsTopicMetrics();

    private HttpOutbox outbox(HttpEndpointClient.Poster poster, int capacity) {
        return new HttpOutbox(poster, (d, why) -> parked.add(d.messageId() + ": " + why), OutboxLog.memory(), metrics, capacity,
                new DirectExecutor(),
                (task, delay) -> {
                    delays.add(delay);
                    waiting.add(task);
                });
    }

    private void runTimers() {
        while (!waiting.isEmpty()) {
            waiting.remove(0).run();
        }
    }

    private static HttpDelivery delivery(String id, HttpRetryPolicy policy) {
        return new HttpDelivery("arn:sub", "arn:topic", "http://127.0.0.1:1/", "Notification", id, Map.of(),
                new byte[0], policy);
    }

    @Test
    void failingTwiceThenSucceedingRetriesOnTheScheduleAndDelivers() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        HttpOutbox o = outbox((u, h, b) -> posts.incrementAndGet() <= 2 ? 500 : 200, 10);
        o.reserve(1);
        o.submit(delivery("m1", HttpRetryPolicy.DEFAULT));
        runTimers();
        assertThat(posts).hasValue(3);
        assertThat(delays).containsExactly(20_000L, 20_000L);
        assertThat(metrics.total(SnsTopicMetrics.Count.DELIVERED)).isEqualTo(1);
        assertThat(o.retried).hasValue(2);
        assertThat(parked).isEmpty();
        assertThat(o.pending()).isZero();
    }

    @Test
    void aUsedUpScheduleGoesToTheDeadLetters() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        HttpOutbox o = outbox((u, h, b) -> {
            posts.incrementAndGet();
            throw new IOException("connection refused");
        }, 10);
        o.reserve(1);
        o.submit(delivery("m2", HttpRetryPolicy.DEFAULT));
        runTimers();
        assertThat(posts).hasValue(4); // the first attempt and 3 retries
        assertThat(parked).containsExactly("m2: connection refused");
        assertThat(metrics.total(SnsTopicMetrics.Count.FAILED)).isEqualTo(1);
        assertThat(o.pending()).isZero();
    }

    @Test
    void clientErrorsRedirectsAndRefusalsAreNotRetried() throws Exception {
        HttpOutbox o = outbox((u, h, b) -> u.toString().contains("404") ? 404 : u.toString().contains("302") ? 302 : 429, 10);
        o.reserve(3);
        o.submit(new HttpDelivery("s", "t", "http://127.0.0.1/404", "Notification", "a", Map.of(), new byte[0], HttpRetryPolicy.DEFAULT));
        o.submit(new HttpDelivery("s", "t", "http://127.0.0.1/302", "Notification", "b", Map.of(), new byte[0], HttpRetryPolicy.DEFAULT));
        assertThat(parked).containsExactly("a: the endpoint answered HTTP 404", "b: the endpoint answered HTTP 302");
        o.submit(new HttpDelivery("s", "t", "http://127.0.0.1/429", "Notification", "c", Map.of(), new byte[0], HttpRetryPolicy.DEFAULT));
        assertThat(delays).hasSize(1); // 429 is retried
        HttpOutbox refusing = outbox((u, h, b) -> {
            throw new OutboundAllowList.Refused("not allowed");
        }, 10);
        refusing.reserve(1);
        refusing.submit(delivery("d", HttpRetryPolicy.DEFAULT));
        assertThat(parked).contains("d: not allowed");
        assertThat(delays).hasSize(1);
    }

    @Test
    void aFullOutboxRefusesWithThrottledAndCountsIt() throws Exception {
        HttpOutbox o = outbox((u, h, b) -> 500, 2);
        o.reserve(2);
        assertThatThrownBy(() -> o.reserve(1)).isInstanceOfSatisfying(SnsException.class,
                e -> assertThat(e.code()).isEqualTo("Throttled"));
        assertThat(o.counters()).containsEntry("HttpOutboxFullRefusals", 1L).containsEntry("HttpDeliveriesPending", 2L);
        o.release(1);
        o.reserve(1);
    }

    @Test
    void aQueueDeliveryIsRetriedOnTheAwsManagedScheduleForAbout23DaysThenParked() throws Exception {
        AtomicInteger sends = new AtomicInteger();
        HttpOutbox o = outbox((u, h, b) -> {
            sends.incrementAndGet();
            return 500; // a server-side refusal, every time
        }, 10);
        o.reserve(1);
        o.submit(new HttpDelivery("arn:aws:sns:us-east-1:000000000000:t:s1", "arn:aws:sns:us-east-1:000000000000:t",
                "arn:aws:sqs:us-east-1:000000000000:q", "Notification", "m9", Map.of(), "{}".getBytes(),
                HttpRetryPolicy.AWS_MANAGED));
        runTimers();
        assertThat(sends).hasValue(100_016);
        assertThat(delays.subList(0, 7)).containsExactly(0L, 0L, 0L, 1_000L, 1_000L, 1_000L, 1_000L);
        long seconds = delays.stream().mapToLong(Long::longValue).sum() / 1000;
        assertThat(seconds).isEqualTo(2 + 67 + 20L * 100_000);
        assertThat(parked).containsExactly("m9: the endpoint answered HTTP 500");
        assertThat(o.counters()).containsEntry("QueueDeliveriesRetried", 100_015L).containsEntry("HttpDeliveriesRetried", 0L);
        assertThat(metrics.total(SnsTopicMetrics.Count.FAILED)).isEqualTo(1);
    }

    @Test
    void aThrottledSubscriptionIsPacedAtMaxReceivesPerSecondOnTheClock() throws Exception {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000_000);
        List<Long> sentAt = new ArrayList<>();
        List<long[]> timers = new ArrayList<>(); // {due, index into tasks}
        List<Runnable> tasks = new ArrayList<>();
        HttpOutbox o = new HttpOutbox((u, h, b) -> {
            sentAt.add(now.get());
            return sentAt.size() == 2 ? 500 : 200; // the second message fails once: its retry is paced too
        }, (d, why) -> parked.add(d.messageId()), OutboxLog.memory(), metrics, 10, new DirectExecutor(),
                (task, delay) -> {
                    timers.add(new long[] {now.get() + delay, tasks.size()});
                    tasks.add(task);
                }, now::get);
        HttpRetryPolicy fourPerSecond = HttpRetryPolicy.of(null, "{\"healthyRetryPolicy\":{\"numRetries\":1,"
                + "\"numNoDelayRetries\":1},\"throttlePolicy\":{\"maxReceivesPerSecond\":4}}");
        assertThat(fourPerSecond.maxReceivesPerSecond()).isEqualTo(4);
        o.reserve(3);
        for (String id : List.of("a", "b", "c")) {
            o.submit(delivery(id, fourPerSecond));
        }
        while (!timers.isEmpty()) { // advance the clock to the earliest timer and run it
            long[] next = timers.stream().min(java.util.Comparator.comparingLong(t -> t[0])).orElseThrow();
            timers.remove(next);
            now.set(Math.max(now.get(), next[0]));
            tasks.get((int) next[1]).run();
        }
        assertThat(sentAt).containsExactly(1_000_000L, 1_000_250L, 1_000_500L, 1_000_750L);
        assertThat(o.counters().get("HttpDeliveriesThrottled")).isEqualTo(3L);
        assertThat(metrics.total(SnsTopicMetrics.Count.DELIVERED)).isEqualTo(3);
        assertThat(parked).isEmpty();
        assertThat(o.pending()).isZero();
    }

    @Test
    void aFailingFunctionIsRetriedTwiceAMinuteThenTwoMinutesApartThenParked() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        HttpOutbox o = outbox((u, h, b) -> {
            calls.incrementAndGet();
            return LambdaInvoker.FAILED;
        }, 10);
        o.reserve(2);
        o.submit(new HttpDelivery("arn:aws:sns:us-east-1:000000000000:t:s1", "arn:aws:sns:us-east-1:000000000000:t",
                "arn:aws:lambda:us-east-1:000000000000:function:fn", "Notification", "l1", Map.of(), "{}".getBytes(),
                HttpRetryPolicy.LAMBDA_ASYNC));
        runTimers();
        assertThat(calls).hasValue(3);
        assertThat(delays).containsExactly(60_000L, 120_000L);
        assertThat(parked).containsExactly("l1: the endpoint answered HTTP 500");
        assertThat(o.counters()).containsEntry("LambdaDeliveriesRetried", 2L).containsEntry("HttpDeliveriesRetried", 0L);
        o.submit(new HttpDelivery("arn:aws:sns:us-east-1:000000000000:t:s1", "arn:aws:sns:us-east-1:000000000000:t",
                "arn:aws:lambda:us-east-1:000000000000:function:gone", "Notification", "l2", Map.of(), "{}".getBytes(),
                HttpRetryPolicy.LAMBDA_ASYNC));
        assertThat(parked).hasSize(1); // still failing (500): the second one waits for its retries
        HttpOutbox missing = outbox((u, h, b) -> LambdaInvoker.NO_SUCH_FUNCTION, 10);
        missing.reserve(1);
        missing.submit(new HttpDelivery("s", "t", "arn:aws:lambda:us-east-1:000000000000:function:gone", "Notification",
                "l3", Map.of(), "{}".getBytes(), HttpRetryPolicy.LAMBDA_ASYNC));
        assertThat(parked).contains("l3: the endpoint answered HTTP 404"); // a missing function is not retried
    }
}
