package io.hikyaku.push;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one enabled mapping's queue to its function: pollers that each loop receive (long poll) →
 * filter → invoke → delete, without holding a thread while they wait.
 *
 * <p>Scaling: one poller to start. A poller whose receive came back full (a backlog) and whose batch
 * succeeded starts one more, up to the mapping's maximum concurrency. Extra pollers poll with a 1 s
 * wait and stop when the queue is empty; the last one long-polls 20 s, so an idle mapping makes one
 * receive per 20 s. Backpressure: a failed batch (non-2xx, timeout, connection error) pauses every
 * poller of the mapping for 1, 2, 4 ... up to 30 s and drops the mapping back to one poller; a success
 * resets the pause. Concurrent invocations never exceed the maximum (a FIFO receive can yield batches of
 * several message groups; they share the same permits).
 */
final class MappingRunner {

    private static final Logger LOG = LoggerFactory.getLogger(MappingRunner.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int LONG_POLL_SECONDS = 20;
    static final int EXTRA_POLLER_WAIT_SECONDS = 1;
    /** Stop gathering a batch past this many body bytes, so the event stays under Lambda's 6 MB payload. */
    static final int MAX_GATHER_BYTES = 5 * 1024 * 1024;

    private final EventSourceMapping mapping;
    private final FunctionConfig function;
    private final QueueClient queues;
    private final FunctionInvoker invoker;
    private final ScheduledExecutorService scheduler;
    private final Executor work;
    private final Clock clock;
    private final MappingCounters counters;
    private final AsyncPermits permits;
    private final Backoff backoff = new Backoff();
    private final Set<CompletableFuture<?>> pendingReceives = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private volatile boolean stopped;
    private int pollers; // guarded by this

    MappingRunner(EventSourceMapping mapping, FunctionConfig function, QueueClient queues, FunctionInvoker invoker,
                  ScheduledExecutorService scheduler, Executor work, Clock clock, MappingCounters counters) {
        this.mapping = mapping;
        this.function = function;
        this.queues = queues;
        this.invoker = invoker;
        this.scheduler = scheduler;
        this.work = work;
        this.clock = clock;
        this.counters = counters;
        this.permits = new AsyncPermits(mapping.effectiveMaxConcurrency());
    }

    void start() {
        synchronized (this) {
            pollers = 1;
            counters.pollers.set(1);
        }
        work.execute(this::cycle);
    }

    /** Stops polling; completes once every poller has ended (in-flight invocations finish first). */
    CompletableFuture<Void> stop() {
        stopped = true;
        for (CompletableFuture<?> f : pendingReceives) {
            f.cancel(false);
        }
        synchronized (this) {
            if (pollers == 0) {
                finished.complete(null);
            }
        }
        return finished;
    }

    private void cycle() {
        if (stopped) {
            retire();
            return;
        }
        long pause = backoff.remainingMillis(clock.millis());
        if (pause > 0) {
            scheduler.schedule(() -> work.execute(this::cycle), pause, TimeUnit.MILLISECONDS);
            return;
        }
        Gather gather = new Gather();
        receiveMore(gather).whenCompleteAsync((g, error) -> afterGather(g, error), work);
    }

    /** Receives until the batch is full, the batching window has passed, or (FIFO, no window) after one receive. */
    private CompletableFuture<Gather> receiveMore(Gather g) {
        int want = Math.min(10, mapping.batchSize() - g.messages.size());
        int wait;
        if (g.messages.isEmpty()) {
            synchronized (this) {
                wait = pollers > 1 ? EXTRA_POLLER_WAIT_SECONDS : LONG_POLL_SECONDS;
            }
        } else {
            wait = (int) Math.min(LONG_POLL_SECONDS, Math.max(0, (g.deadlineMillis - clock.millis() + 999) / 1000));
        }
        CompletableFuture<List<ObjectNode>> receive = queues.receive(mapping.account(), mapping.queue(), want, wait);
        pendingReceives.add(receive);
        if (stopped) {
            receive.cancel(false);
        }
        return receive.thenComposeAsync(messages -> {
            pendingReceives.remove(receive);
            if (g.messages.isEmpty() && !messages.isEmpty()) {
                g.deadlineMillis = clock.millis() + mapping.batchingWindowSeconds() * 1000L;
            }
            g.add(messages, want);
            if (messages.isEmpty() || mapping.batchingWindowSeconds() == 0 || g.messages.size() >= mapping.batchSize()
                    || g.bytes >= MAX_GATHER_BYTES || clock.millis() >= g.deadlineMillis || stopped) {
                return CompletableFuture.completedFuture(g);
            }
            return receiveMore(g);
        }, work).whenComplete((ok, error) -> pendingReceives.remove(receive));
    }

    private void afterGather(Gather g, Throwable error) {
        if (error != null) {
            if (stopped || unwrap(error) instanceof CancellationException) {
                retire();
                return;
            }
            failed("receive from " + mapping.queue() + " failed: " + unwrap(error).getMessage());
            return;
        }
        if (g.messages.isEmpty()) {
            synchronized (this) {
                if (pollers > 1) {
                    pollers--;
                    counters.pollers.set(pollers);
                    return; // the queue is empty: scale down
                }
            }
            cycle();
            return;
        }
        process(g.messages).whenCompleteAsync((ok, e) -> {
            if (e != null) {
                LOG.error("{}: unexpected failure", mapping.uuid(), e);
                failed("internal error: " + e);
            } else if (ok) {
                succeeded(g.full);
            } else {
                scaleDownOrContinue(); // the failed invocation already started the pause
            }
        }, work);
    }

    /** Filters, splits into batches and invokes them; true unless a batch failed as a whole. */
    private CompletableFuture<Boolean> process(List<ObjectNode> messages) {
        String arn = mapping.queue().toString();
        List<ObjectNode> passed = new ArrayList<>();
        List<String> filteredOut = new ArrayList<>();
        for (ObjectNode m : messages) {
            ObjectNode record = SqsEventBuilder.record(m, arn, mapping.queue().region());
            if (mapping.filters().passes(record)) {
                passed.add(record);
            } else {
                filteredOut.add(record.path("receiptHandle").asText());
            }
        }
        if (!filteredOut.isEmpty()) {
            counters.filtered.addAndGet(filteredOut.size());
            queues.delete(mapping.account(), mapping.queue(), filteredOut).whenComplete((refused, e) -> {
                if (e != null) {
                    note("deleting messages that matched no filter failed: " + unwrap(e).getMessage());
                }
            });
        }
        List<List<ObjectNode>> batches = mapping.fifo() ? byGroup(passed) : passed.isEmpty() ? List.of() : List.of(passed);
        List<CompletableFuture<Boolean>> calls = new ArrayList<>();
        for (List<ObjectNode> batch : batches) {
            calls.add(permits.acquire().thenComposeAsync(v -> invoke(batch), work)
                    .whenComplete((ok, e) -> permits.release()));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(v -> calls.stream().allMatch(CompletableFuture::join));
    }

    /** FIFO: one batch per message group, each in receive (= group) order. */
    private static List<List<ObjectNode>> byGroup(List<ObjectNode> records) {
        Map<String, List<ObjectNode>> groups = new LinkedHashMap<>();
        for (ObjectNode r : records) {
            groups.computeIfAbsent(r.path("attributes").path("MessageGroupId").asText(), k -> new ArrayList<>()).add(r);
        }
        return new ArrayList<>(groups.values());
    }

    private CompletableFuture<Boolean> invoke(List<ObjectNode> batch) {
        long now = clock.millis();
        long oldestSent = now;
        Set<String> ids = new HashSet<>();
        for (ObjectNode r : batch) {
            ids.add(r.path("messageId").asText());
            oldestSent = Math.min(oldestSent, r.path("attributes").path("SentTimestamp").asLong(now));
        }
        byte[] event;
        try {
            event = JSON.writeValueAsBytes(SqsEventBuilder.event(batch));
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
        counters.batch(batch.size(), Math.max(0, now - oldestSent));
        counters.concurrency.incrementAndGet();
        return invoker.invoke(function, mapping.uuid(), event).thenComposeAsync(result -> {
            counters.concurrency.decrementAndGet();
            if (!result.ok()) {
                backoff.fail(clock.millis()); // before the counter: whoever sees the error sees the pause too
                counters.errors.incrementAndGet();
                invocationFailed(result.describe(), batch.size());
                return CompletableFuture.completedFuture(false);
            }
            BatchOutcome outcome = BatchOutcome.of2xx(result.body(), mapping.reportBatchItemFailures(), ids);
            if (outcome.allFailed()) {
                backoff.fail(clock.millis());
                counters.errors.incrementAndGet();
                invocationFailed("2xx, but the batch response is a complete failure: " + outcome.reason(), batch.size());
                return CompletableFuture.completedFuture(false);
            }
            List<String> toDelete = new ArrayList<>();
            for (ObjectNode r : batch) {
                if (outcome.failedIds().contains(r.path("messageId").asText())) {
                    if (mapping.fifo()) {
                        break; // FIFO: the first failure and everything after it in the group stay
                    }
                    continue;
                }
                toDelete.add(r.path("receiptHandle").asText());
            }
            counters.itemFailures.addAndGet(batch.size() - toDelete.size());
            return queues.delete(mapping.account(), mapping.queue(), toDelete).handle((refused, e) -> {
                if (e != null) {
                    note("deleting processed messages failed: " + unwrap(e).getMessage());
                    return true;
                }
                counters.deleted.addAndGet(toDelete.size() - refused);
                if (refused > 0) {
                    note(refused + " processed message(s) could not be deleted (visibility timeout passed?)");
                }
                return true;
            });
        }, work);
    }

    private void succeeded(boolean backlog) {
        backoff.reset();
        boolean spawn = false;
        synchronized (this) {
            if (backlog && !stopped && pollers < mapping.effectiveMaxConcurrency()) {
                pollers++;
                counters.pollers.set(pollers);
                spawn = true;
            }
        }
        if (spawn) {
            work.execute(this::cycle);
        }
        cycle();
    }

    /** A receive failed (or an internal error): pause, then continue with fewer pollers. */
    private void failed(String why) {
        backoff.fail(clock.millis());
        note(why);
        scaleDownOrContinue();
    }

    /** After a failure: an extra poller stops (a failing endpoint gets fewer callers); the last one goes on after the pause. */
    private void scaleDownOrContinue() {
        synchronized (this) {
            if (pollers > 1 && !stopped) {
                pollers--;
                counters.pollers.set(pollers);
                return;
            }
        }
        cycle();
    }

    private void retire() {
        synchronized (this) {
            if (pollers > 0) {
                pollers--;
                counters.pollers.set(pollers);
            }
            if (pollers == 0 && stopped) {
                finished.complete(null);
            }
        }
    }

    /**
     * One warning per failed call: what went wrong (HTTP status, timeout, connection error, unusable batch
     * response), never a message body. Calls are bounded by the backoff, so this cannot flood the log.
     */
    private void invocationFailed(String why, int messages) {
        LOG.warn("event source mapping {} ({} -> {}): invocation failed ({}); {} message(s) return after the visibility timeout",
                mapping.uuid(), mapping.queue(), function.name(), why, messages);
    }

    /** Logs a problem: the first of a streak and then every 100th, so a dead endpoint does not flood the log. */
    private void note(String message) {
        long errors = counters.errors();
        if (backoff.streak() <= 1 || errors % 100 == 0) {
            LOG.warn("event source mapping {} ({} -> {}): {}", mapping.uuid(), mapping.queue(), function.name(), message);
        }
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** A batch being gathered. */
    private static final class Gather {
        final List<ObjectNode> messages = new ArrayList<>();
        long bytes;
        long deadlineMillis = Long.MAX_VALUE;
        boolean full;

        void add(List<ObjectNode> received, int asked) {
            messages.addAll(received);
            for (ObjectNode m : received) {
                bytes += m.path("Body").asText("").length();
            }
            full = received.size() >= asked && asked > 0;
        }
    }
}
