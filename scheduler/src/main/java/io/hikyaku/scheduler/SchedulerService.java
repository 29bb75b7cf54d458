package io.hikyaku.scheduler;

import io.hikyaku.api.SqsService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The Scheduler as the server runs it: the durable schedules, the API, and a firer ticking every 100 ms. */
public final class SchedulerService implements AutoCloseable {

    static final long TICK_MILLIS = 100;

    private final SchedulerStore store;
    private final SchedulerApi api;
    private final ScheduleFirer firer;
    private final ScheduledExecutorService ticker;

    private SchedulerService(SchedulerStore store, SchedulerApi api, ScheduleFirer firer, ScheduledExecutorService ticker) {
        this.store = store;
        this.api = api;
        this.firer = firer;
        this.ticker = ticker;
    }

    /** @param dataDir the server's data dir, or null for {@code --storage memory} */
    public static SchedulerService start(SqsService sqs, Path dataDir, String region, Clock clock) {
        return start(sqs, dataDir, region, clock, ExecutionRoles.UNCHECKED, TopicTargets.NONE);
    }

    /**
     * @param dataDir the server's data dir, or null for {@code --storage memory}
     * @param roles   how each fire's execution role is authorized ({@code --auth sigv4}), or {@link ExecutionRoles#UNCHECKED}
     * @param topics  this server's SNS topics as targets, or {@link TopicTargets#NONE}
     */
    public static SchedulerService start(SqsService sqs, Path dataDir, String region, Clock clock, ExecutionRoles roles,
                                         TopicTargets topics) {
        return start(sqs, new SchedulerJournal(dataDir), region, clock, roles, topics);
    }

    /** @param journal where the schedules are kept: the data dir's file, or a cluster's replicated service log */
    public static SchedulerService start(SqsService sqs, SchedulerJournal journal, String region, Clock clock,
                                         ExecutionRoles roles, TopicTargets topics) {
        try {
            SchedulerStore store = SchedulerStore.open(region, journal);
            ScheduleFirer firer = new ScheduleFirer(store, sqs, region, clock, roles, topics);
            ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "hikyaku-scheduler");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleWithFixedDelay(() -> {
                try {
                    firer.tick();
                } catch (RuntimeException e) {
                    org.slf4j.LoggerFactory.getLogger(SchedulerService.class).warn("A scheduler tick failed", e);
                }
            }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            return new SchedulerService(store, new SchedulerApi(store, clock, new SqsTargetQueues(sqs, region)), firer, ticker);
        } catch (IOException e) {
            throw new UncheckedIOException("Schedules could not be loaded: " + e.getMessage(), e);
        }
    }

    public SchedulerApi api() {
        return api;
    }

    /** How many schedules are stored, in every account. */
    public int scheduleCount() {
        try {
            return store.read(SchedulerState::size);
        } catch (SchedulerException e) {
            return 0;
        }
    }

    /** The AWS/Scheduler totals since start, by metric name. */
    public java.util.Map<String, Long> counters() {
        return firer.counters();
    }

    /** Where each invocation's outcome is counted per account and schedule group (the server: CloudWatch). */
    public void metrics(SchedulerMetrics sink) {
        firer.metrics(sink);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(10, TimeUnit.SECONDS);
            store.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
