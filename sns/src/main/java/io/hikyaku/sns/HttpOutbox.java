package io.hikyaku.sns;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP/S deliveries off the request path: a bounded outbox (at most {@link #capacity} deliveries queued, waiting for a
 * retry or in flight) served by a fixed pool of {@link #workers} threads (so at most that many POSTs are in flight).
 * A publish or subscribe reserves its slots first and is refused (SNS's {@code Throttled}) when the outbox is full,
 * so nothing accepted is dropped for lack of room. Each delivery is POSTed; a 2xx is delivered; a 5xx, a 429, a
 * timeout or a connection failure is retried on the subscription's schedule ({@link HttpRetryPolicy}); any other
 * status (4xx, a 3xx redirect, which is never followed), a destination the allow-list refuses, or a used-up schedule
 * hands the delivery to {@link DeadLetters} (the subscription's RedrivePolicy queue, if any).
 * <p>
 * A subscription whose policy has {@code throttlePolicy.maxReceivesPerSecond} gets its attempts (first tries and
 * retries alike) spaced at least 1/N s apart: an attempt that would come too early waits on the timer for its slot
 * (counted in {@code HttpDeliveriesThrottled}) and holds its room in the outbox meanwhile.
 * <p>
 * Every accepted delivery is written to the {@link OutboxLog} (forced) before the publish answers, and marked when
 * finished, so deliveries pending at a stop or crash are sent again after the restart ({@link #recover}):
 * at-least-once (a POST whose answer or finish mark was lost is repeated). {@code --storage memory} keeps no log.
 */
final class HttpOutbox implements AutoCloseable {

    /** Where used-up or refused deliveries go. */
    interface DeadLetters {
        /** @return true when the delivery was parked in the subscription's DLQ */
        boolean park(HttpDelivery delivery, String reason);
    }

    /** Runs a task after a delay: a scheduled executor in production, a manual one in tests. */
    interface Timer {
        void schedule(Runnable task, long delayMillis);
    }

    static final int DEFAULT_CAPACITY = 10_000;
    static final int DEFAULT_WORKERS = 8;

    private final HttpEndpointClient.Poster poster;
    private final DeadLetters deadLetters;
    private final OutboxLog log;
    private final ExecutorService pool;
    private final Timer timer;
    private final ScheduledExecutorService ownTimer;
    final int capacity;
    final int workers;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final SnsTopicMetrics metrics;
    final AtomicLong retried = new AtomicLong();
    final AtomicLong queueRetried = new AtomicLong();
    final AtomicLong lambdaRetried = new AtomicLong();
    final AtomicLong deadLettered = new AtomicLong();
    final AtomicLong refusedFull = new AtomicLong();
    final AtomicLong throttled = new AtomicLong();
    private final java.util.function.LongSupplier clock;
    /** Per throttled subscription: the earliest time (ms, fractional) its next attempt may start. */
    private final java.util.concurrent.ConcurrentHashMap<String, Double> nextSlot = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean closed;

    HttpOutbox(HttpEndpointClient.Poster poster, DeadLetters deadLetters, OutboxLog log, SnsTopicMetrics metrics,
               int capacity, int workers) {
        this.poster = poster;
        this.metrics = metrics;
        this.deadLetters = deadLetters;
        this.log = log;
        this.capacity = capacity;
        this.workers = workers;
        this.clock = System::currentTimeMillis;
        this.pool = Executors.newFixedThreadPool(workers, daemon("sns-http-delivery"));
        this.ownTimer = Executors.newSingleThreadScheduledExecutor(daemon("sns-http-retry"));
        this.timer = (task, delay) -> ownTimer.schedule(task, delay, TimeUnit.MILLISECONDS);
    }

    /** Tests: deliveries run on {@code pool}, retries wait on {@code timer}. */
    HttpOutbox(HttpEndpointClient.Poster poster, DeadLetters deadLetters, OutboxLog log, SnsTopicMetrics metrics,
               int capacity, ExecutorService pool, Timer timer) {
        this(poster, deadLetters, log, metrics, capacity, pool, timer, System::currentTimeMillis);
    }

    /** Tests: as above, with the clock throttled subscriptions are paced by. */
    HttpOutbox(HttpEndpointClient.Poster poster, DeadLetters deadLetters, OutboxLog log, SnsTopicMetrics metrics,
               int capacity, ExecutorService pool, Timer timer, java.util.function.LongSupplier clock) {
        this.clock = clock;
        this.poster = poster;
        this.metrics = metrics;
        this.deadLetters = deadLetters;
        this.log = log;
        this.capacity = capacity;
        this.workers = 1;
        this.pool = pool;
        this.ownTimer = null;
        this.timer = timer;
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Reserves room for {@code n} deliveries, or refuses with SNS's Throttled when the outbox is full. */
    void reserve(int n) throws SnsException {
        if (n == 0) {
            return;
        }
        while (true) {
            int now = pending.get();
            if (closed || now + n > capacity) {
                refusedFull.incrementAndGet();
                throw new SnsException("Throttled", 400, "The HTTP delivery outbox is full (" + capacity
                        + " deliveries pending): publish again later");
            }
            if (pending.compareAndSet(now, now + n)) {
                return;
            }
        }
    }

    /** Gives back reserved room that will not be used. */
    void release(int n) {
        pending.addAndGet(-n);
    }

    /**
     * Writes a delivery whose room was reserved to the log (forced), then starts it.
     * @throws SnsException InternalError when the log cannot be written (the room is given back; nothing is sent)
     */
    void submit(HttpDelivery d) throws SnsException {
        long id;
        try {
            id = log.add(d);
        } catch (IOException e) {
            pending.decrementAndGet();
            throw new SnsException("InternalError", 500, "The SNS delivery outbox could not be written; publish again");
        }
        run(() -> attempt(d, id, 0, 0));
    }

    /** Starts again what a previous run accepted and did not finish (their retry schedules start over). */
    int recover() throws IOException {
        Map<Long, HttpDelivery> left = log.recovered();
        for (Map.Entry<Long, HttpDelivery> e : left.entrySet()) {
            pending.incrementAndGet(); // accepted before: taken whatever the room
            run(() -> attempt(e.getValue(), e.getKey(), 0, 0));
        }
        return left.size();
    }

    private void finished(long id) {
        pending.decrementAndGet();
        try {
            log.finish(id);
        } catch (IOException e) {
            // the mark is lost: the delivery is sent once more after a restart (at-least-once)
        }
    }

    private void run(Runnable task) {
        try {
            pool.execute(task);
        } catch (RejectedExecutionException stopped) {
            pending.decrementAndGet(); // the server is stopping: the log keeps the delivery for the next start
        }
    }

    private void attempt(HttpDelivery d, long id, int retriesDone, long waitedSeconds) {
        if (closed) {
            pending.decrementAndGet(); // stopping: left in the log for the next start
            return;
        }
        double spacing = d.policy().pacingMillis();
        if (spacing > 0) {
            long now = clock.getAsLong();
            double slot = nextSlot.compute(d.subscriptionArn(), (k, next) -> Math.max(now, next == null ? now : next) + spacing)
                    - spacing;
            long wait = (long) Math.ceil(slot - now);
            if (wait > 0) { // too early for this subscription: its slot comes later
                throttled.incrementAndGet();
                try {
                    timer.schedule(() -> run(() -> send(d, id, retriesDone, waitedSeconds)), wait);
                } catch (RejectedExecutionException stopped) {
                    pending.decrementAndGet();
                }
                return;
            }
        }
        send(d, id, retriesDone, waitedSeconds);
    }

    /** One attempt whose slot (if throttled) has come. */
    private void send(HttpDelivery d, long id, int retriesDone, long waitedSeconds) {
        if (closed) {
            pending.decrementAndGet();
            return;
        }
        inFlight.incrementAndGet();
        String failure;
        boolean retryable;
        try {
            int status = poster.post(URI.create(d.endpoint()), d.headers(), d.body());
            if (status >= 200 && status < 300) {
                if (d.messageType().equals("Notification")) {
                    metrics.count(d.topicArn(), SnsTopicMetrics.Count.DELIVERED);
                }
                finished(id);
                return;
            }
            failure = "the endpoint answered HTTP " + status;
            retryable = status >= 500 || status == 429;
        } catch (OutboundAllowList.Refused refused) {
            failure = refused.getMessage();
            retryable = false;
        } catch (IOException | RuntimeException e) {
            failure = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            retryable = true;
        } finally {
            inFlight.decrementAndGet();
        }
        long delay = retryable && !closed ? d.policy().delayBeforeRetry(retriesDone + 1, waitedSeconds) : -1;
        if (delay >= 0) {
            (QueueCalls.isQueueArn(d.endpoint()) ? queueRetried
                    : SnsArns.isLambdaArn(d.endpoint()) ? lambdaRetried : retried).incrementAndGet();
            try {
                timer.schedule(() -> run(() -> attempt(d, id, retriesDone + 1, waitedSeconds + delay)), delay * 1000);
            } catch (RejectedExecutionException stopped) {
                pending.decrementAndGet(); // stopping: left in the log for the next start
            }
            return;
        }
        if (d.messageType().equals("Notification")) {
            metrics.count(d.topicArn(), SnsTopicMetrics.Count.FAILED);
        }
        if (deadLetters.park(d, failure)) {
            deadLettered.incrementAndGet();
        }
        finished(id);
    }

    /** Gauges and counters for /metrics: pending, in flight, capacity, and what happened to deliveries. */
    Map<String, Long> counters() {
        return Map.of("HttpDeliveriesPending", (long) pending.get(), "HttpDeliveriesInFlight", (long) inFlight.get(),
                "HttpOutboxCapacity", (long) capacity, "HttpDeliveriesRetried", retried.get(),
                "QueueDeliveriesRetried", queueRetried.get(), "LambdaDeliveriesRetried", lambdaRetried.get(),
                "HttpDeliveriesDeadLettered", deadLettered.get(), "HttpOutboxFullRefusals", refusedFull.get(),
                "HttpDeliveriesThrottled", throttled.get());
    }

    int pending() {
        return pending.get();
    }

    @Override
    public void close() {
        closed = true;
        pool.shutdownNow();
        if (ownTimer != null) {
            ownTimer.shutdownNow();
        }
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS); // POSTs in flight end (their sockets time out) before the log closes
            log.close();
        } catch (IOException | InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
