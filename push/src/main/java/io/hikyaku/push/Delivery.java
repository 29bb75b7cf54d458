package io.hikyaku.push;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the pollers of enabled mappings and keeps every mapping's counters. Two small thread pools do
 * all the work (pollers never block a thread: receives and calls are futures).
 */
final class Delivery implements AutoCloseable {

    private final QueueClient queues;
    private FunctionInvoker invoker; // created with the first running mapping (its client has a thread); guarded by this
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService work;
    private final Map<String, MappingRunner> runners = new ConcurrentHashMap<>();
    private final Map<String, MappingCounters> counters = new ConcurrentHashMap<>();

    Delivery(QueueClient queues, Clock clock) {
        this.queues = queues;
        this.clock = clock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("hikyaku-push-timer"));
        this.work = Executors.newFixedThreadPool(2, daemon("hikyaku-push"));
    }

    /** (Re)starts {@code mapping}'s pollers as it now is: stops the old ones, starts new ones when enabled. */
    void apply(EventSourceMapping mapping, FunctionConfig function) {
        MappingCounters c = counters.computeIfAbsent(mapping.uuid(),
                id -> new MappingCounters(id, mapping.functionName(), mapping.queue().toString()));
        c.functionName(mapping.functionName());
        MappingRunner old = runners.remove(mapping.uuid());
        if (old != null) {
            old.stop();
        }
        if (mapping.enabled()) {
            MappingRunner runner = new MappingRunner(mapping, function, queues, invoker(), scheduler, work, clock, c);
            runners.put(mapping.uuid(), runner);
            runner.start();
        }
    }

    synchronized FunctionInvoker invoker() {
        if (invoker == null) {
            invoker = new FunctionInvoker(clock);
        }
        return invoker;
    }

    void remove(String uuid) {
        MappingRunner old = runners.remove(uuid);
        if (old != null) {
            old.stop();
        }
        counters.remove(uuid);
    }

    Collection<MappingMetrics> metrics() {
        return List.copyOf(counters.values());
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    ExecutorService work() {
        return work;
    }

    /** Stops every poller, waiting up to {@code graceMillis} for in-flight invocations to finish. */
    void stopAll(long graceMillis) {
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        runners.values().forEach(r -> stopping.add(r.stop()));
        runners.clear();
        try {
            CompletableFuture.allOf(stopping.toArray(CompletableFuture[]::new)).get(graceMillis, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // past the grace period: what is still in flight returns to the queue after its visibility timeout
        }
    }

    @Override
    public void close() {
        stopAll(5_000);
        scheduler.shutdownNow();
        work.shutdownNow();
        synchronized (this) {
            if (invoker != null) {
                invoker.close();
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
