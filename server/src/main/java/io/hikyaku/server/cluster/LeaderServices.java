package io.hikyaku.server.cluster;

import io.hikyaku.api.SqsService;
import io.hikyaku.engine.store.Store;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The services whose state is a service log in the replicated store (SNS topics, KMS keys, Scheduler schedules,
 * CloudWatch alarms) run on the ready leader only. Every other node forwards their requests to the leader, as it
 * does SQS's ({@link ClusterRouting}), so every node answers the same; only the leader writes records, ticks the
 * Scheduler, evaluates alarms and delivers SNS messages.
 *
 * <p>A check every {@value #CHECK_MILLIS} ms starts them once this node is the ready leader and its engine has been
 * reloaded ({@link SqsService#serving}: the replicated store then takes writes), each reading its whole log first;
 * it stops them as soon as the node is not the ready leader (or its role changed since they started: then they
 * start again, from the log). A failed start is retried after {@value #RETRY_MILLIS} ms.
 */
public final class LeaderServices implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderServices.class);
    /** How long a service record may wait for its majority commit before the request fails. */
    public static final long APPEND_TIMEOUT_MILLIS = 10_000;
    static final long CHECK_MILLIS = 100;
    static final long RETRY_MILLIS = 5_000;

    /** Starting the services over the replicated store (replaying their logs), and stopping them. */
    public interface Lifecycle {
        /** Once, before the first start: node-local work that need not wait for the leadership (keys, caches). */
        default void prepare() {
        }

        void start(Store replicated);

        /** Stops whatever runs (also after a start that failed half-way). */
        void stop();
    }

    private final ClusterMode mode;
    private final SqsService sqs;
    private final Lifecycle services;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hikyaku-cluster-services");
        t.setDaemon(true);
        return t;
    });
    private boolean running;
    private long startedAtChange;
    private long retryAt;

    private LeaderServices(ClusterMode mode, SqsService sqs, Lifecycle services) {
        this.mode = mode;
        this.sqs = sqs;
        this.services = services;
        this.retryAt = System.nanoTime();
    }

    public static LeaderServices start(ClusterMode mode, SqsService sqs, Lifecycle services) {
        LeaderServices s = new LeaderServices(mode, sqs, services);
        s.thread.execute(() -> {
            try {
                services.prepare();
            } catch (RuntimeException e) {
                LOG.warn("Preparing the cluster services failed (their start will do it): {}", e.toString());
            }
        });
        s.thread.scheduleWithFixedDelay(s::check, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        return s;
    }

    private void check() {
        try {
            long change = mode.readyLeaderChanges(); // before the role: a change after it is seen next time
            boolean lead = mode.isReadyLeader() && sqs.serving();
            if (running && (!lead || change != startedAtChange)) {
                running = false;
                services.stop();
                LOG.info("Cluster node {}: SNS, KMS, the Scheduler and alarms stopped (not the ready leader)", mode.nodeId());
            }
            if (!running && lead && System.nanoTime() - retryAt >= 0) {
                long began = System.nanoTime();
                try {
                    services.start(mode.replicatedStore());
                    running = true;
                    startedAtChange = change;
                    LOG.info("Cluster node {}: SNS, KMS, the Scheduler and alarms reloaded from the replicated log in {} ms; "
                            + "this node runs them", mode.nodeId(), (System.nanoTime() - began) / 1_000_000);
                } catch (RuntimeException e) {
                    services.stop();
                    retryAt = System.nanoTime() + RETRY_MILLIS * 1_000_000;
                    LOG.error("Cluster node {}: the services could not be started from the replicated log (retried in {} s): {}",
                            mode.nodeId(), RETRY_MILLIS / 1000, e.toString(), e);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Checking the cluster services failed", e);
        }
    }

    /** Stops the check, then the services. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (running) {
            running = false;
            services.stop();
        }
    }
}
