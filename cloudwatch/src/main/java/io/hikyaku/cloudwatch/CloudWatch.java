package io.hikyaku.cloudwatch;

import io.hikyaku.api.ServiceView;
import io.hikyaku.metrics.HikyakuMetrics;
import io.hikyaku.metrics.RequestObserver;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CloudWatch-compatible side of the server: keeps 1-minute datapoints of the AWS/SQS metrics of
 * every queue for 24 hours (sampled on the service clock, persisted to a small snapshot file when the
 * server has a data directory) and answers GetMetricStatistics, GetMetricData and ListMetrics.
 */
public final class CloudWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CloudWatch.class);
    /** The snapshot's file name in the data directory. */
    public static final String FILE_NAME = "cloudwatch-metrics.bin";
    /** Queues tracked at most (~160 KiB of memory each, ~40 MiB in all). */
    public static final int DEFAULT_MAX_QUEUES = 256;
    /** The service metrics' snapshot file name in the data directory. */
    public static final String SERVICE_FILE_NAME = "cloudwatch-service-metrics.bin";
    /** Distinct service metric series kept at most (~56 KiB each, ~56 MiB in all); beyond it new series are dropped. */
    public static final int SERVICE_SERIES_MAX = 1000;
    /** How often the sampler looks at the clock for a new minute. */
    private static final long CHECK_MILLIS = 1000;

    private final Clock clock;
    private final Path file;
    private final MetricHistory history;
    private final CustomMetrics custom = new CustomMetrics(CustomMetrics.DEFAULT_MAX_PER_ACCOUNT, CustomMetrics.DEFAULT_MAX_TOTAL);
    /** The other services' AWS/ metrics ({@link ServiceMetrics}), kept apart so they never use the custom metrics' room. */
    private final CustomMetrics services = new CustomMetrics(SERVICE_SERIES_MAX, SERVICE_SERIES_MAX);
    private final java.util.List<ServiceMetrics> serviceSources = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The service metrics' snapshot, or null (memory only). */
    private final Path servicesFile;
    /** The custom metrics' snapshot, or null (memory only). */
    private final Path customFile;
    private final SentSizes sizes = new SentSizes();
    /** null when metrics are off: nothing is sampled ({@link #withoutData}). */
    private final MetricSampler sampler;
    private final CloudWatchEndpoint endpoint;
    /** Alarm actions run here, off the request and sampling threads (a bounded queue: a full one fails the action). */
    private final java.util.concurrent.ThreadPoolExecutor actions = new java.util.concurrent.ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new java.util.concurrent.ArrayBlockingQueue<>(1000), r -> {
                Thread t = new Thread(r, "hikyaku-cloudwatch-actions");
                t.setDaemon(true);
                return t;
            });
    /** Actions handed over and not yet run (so tests can wait for them). */
    private final java.util.concurrent.atomic.AtomicInteger pendingActions = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.Executor actionRunner = task -> {
        pendingActions.incrementAndGet();
        try {
            actions.execute(() -> {
                try {
                    task.run();
                } finally {
                    pendingActions.decrementAndGet();
                }
            });
        } catch (RuntimeException rejected) {
            pendingActions.decrementAndGet();
            throw rejected;
        }
    };
    private final Alarms alarms;
    private ScheduledExecutorService scheduler;

    /**
     * @param accountId the account whose queues the API answers for
     * @param dataDir   where the snapshot is kept, or null to keep the history in memory only
     */
    public CloudWatch(ServiceView view, HikyakuMetrics metrics, Clock clock, String accountId, Path dataDir, int maxQueues) {
        this.clock = clock;
        this.file = dataDir == null ? null : dataDir.resolve(FILE_NAME);
        this.customFile = dataDir == null ? null : dataDir.resolve(CustomMetrics.FILE_NAME);
        this.servicesFile = dataDir == null ? null : dataDir.resolve(SERVICE_FILE_NAME);
        this.history = new MetricHistory(maxQueues);
        this.sampler = new MetricSampler(view, metrics.registry(), sizes, history, clock);
        MetricReader reader = new MetricReader(history, custom, services, clock);
        this.alarms = new Alarms(reader, clock, dataDir == null ? null : dataDir.resolve(Alarms.FILE_NAME), Alarms.DEFAULT_MAX_PER_ACCOUNT, actionRunner);
        this.endpoint = new CloudWatchEndpoint(new CloudWatchApi(history, custom, reader, alarms, accountId, clock));
        load();
        loadAlarms();
    }

    private CloudWatch(Clock clock, String accountId) {
        this.clock = clock;
        this.file = null;
        this.customFile = null;
        this.servicesFile = null;
        this.history = new MetricHistory(0);
        this.sampler = null;
        MetricReader reader = new MetricReader(history, custom, services, clock);
        this.alarms = new Alarms(reader, clock, null, Alarms.DEFAULT_MAX_PER_ACCOUNT, actionRunner);
        this.endpoint = new CloudWatchEndpoint(new CloudWatchApi(history, custom, reader, alarms, accountId, clock));
    }

    /**
     * The API with metrics off: it answers every request (so dashboards and scalers get an empty
     * answer, not an error), but nothing is sampled, so statistics have no datapoints and ListMetrics
     * lists nothing. A history file kept by an earlier run is neither read nor changed.
     */
    public static CloudWatch withoutData(Clock clock, String accountId) {
        return new CloudWatch(clock, accountId);
    }

    private void load() {
        if (file == null) {
            return;
        }
        loadCustom();
        try {
            history.load(file, MetricSampler.minuteOf(clock.millis()));
        } catch (IOException | RuntimeException e) {
            Path aside = file.resolveSibling(FILE_NAME + ".unreadable");
            LOG.warn("CloudWatch metrics history {} cannot be read ({}); starting empty, the file is kept as {}", file, e.toString(), aside);
            try {
                Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException moveFailed) {
                LOG.warn("Cannot move {} aside: {}", file, moveFailed.toString());
            }
        }
    }

    /**
     * An unreadable alarms file stops the start: alarms are configuration, and starting without them
     * would silently drop every alarm (and the next change would overwrite the file).
     */
    private void loadAlarms() {
        try {
            alarms.load();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The CloudWatch alarms log " + Alarms.FILE_NAME + " (or " + Alarms.JSON_FILE_NAME + ") in the data directory cannot be read ("
                    + e + "); fix or remove it to start", e);
        }
    }

    /**
     * Cluster mode: this node evaluates and changes alarms only while {@code active} (it is the ready leader);
     * when it becomes active, {@code log} (the replicated store's) is replayed first, replacing what it held.
     *
     * @throws java.io.UncheckedIOException when the log cannot be read (the node then does not evaluate)
     */
    public void alarmsLeading(boolean active, io.hikyaku.servicelog.ServiceLog log) {
        if (active) {
            try {
                alarms.reload(log);
            } catch (IOException e) {
                alarms.active(false);
                throw new java.io.UncheckedIOException("the replicated CloudWatch alarms cannot be read", e);
            }
        }
        alarms.active(active);
    }

    /** The name of the alarms' service log in a store ({@code hikyaku.svc/<name>/...}). */
    public static String alarmsService() {
        return Alarms.SERVICE;
    }

    /**
     * Where alarm ARNs and notifications say the alarms are ({@code region}) and how their SNS actions
     * are published. Call before {@link #start()}.
     */
    public CloudWatch alarmsIn(String region, AlarmNotifier notifier) {
        alarms.region(region);
        alarms.notifier(notifier);
        return this;
    }

    private void loadCustom() {
        loadSeries(custom, customFile, "custom");
        loadSeries(services, servicesFile, "service");
    }

    private void loadSeries(CustomMetrics store, Path from, String kind) {
        try {
            store.load(from, MetricSampler.minuteOf(clock.millis()));
        } catch (IOException | RuntimeException e) {
            Path aside = from.resolveSibling(from.getFileName() + ".unreadable");
            LOG.warn("CloudWatch {} metrics {} cannot be read ({}); starting without them, the file is kept as {}", kind, from, e.toString(), aside);
            try {
                Files.move(from, aside, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException moveFailed) {
                LOG.warn("Cannot move {} aside: {}", from, moveFailed.toString());
            }
        }
    }

    /**
     * Adds a service whose AWS/ metrics are drained at each minute's sample ({@link ServiceMetrics}). With metrics
     * off nothing is drained.
     */
    public CloudWatch serviceMetrics(ServiceMetrics source) {
        serviceSources.add(source);
        return this;
    }

    /** Files what each service gathered as datapoints of {@code minute}; a series past the limit is dropped. */
    private void recordServices(long minute) {
        for (ServiceMetrics source : serviceSources) {
            for (ServiceMetrics.Datapoint d : source.drain()) {
                List<MetricKey.Dimension> dims = new java.util.ArrayList<>();
                d.dimensions().forEach((name, value) -> dims.add(new MetricKey.Dimension(name, value)));
                CustomMetrics.Point p = new CustomMetrics.Point(new MetricKey(d.namespace(), d.metricName(), dims), minute,
                        d.count(), d.sum(), d.min(), d.max(), d.unit());
                try {
                    services.record(d.accountId(), List.of(p), minute + 1);
                } catch (CloudWatchException full) {
                    LOG.debug("CloudWatch service metric {} {} not kept: {}", d.namespace(), d.metricName(), full.getMessage());
                }
            }
        }
    }

    /** Starts sampling: takes the counters' starting totals now, then a sample each new minute of the clock. */
    public synchronized CloudWatch start() {
        if (sampler != null) {
            sampler.runDue();
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hikyaku-cloudwatch");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::sampleNowQuietly, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * One datapoint of an AWS service's own metric that this server runs (e.g. AWS/Scheduler's
     * InvocationAttemptCount), kept with the other services' AWS/ series, apart from the custom metrics
     * ({@link ServiceMetrics}'s store: 1-minute statistic sets, 24 hours),
     * at the clock's minute, unit Count. Not through PutMetricData, which refuses {@code AWS/} namespaces. Best
     * effort, as at AWS: when the account's or the server's series limit is reached the point is dropped.
     */
    public void recordServiceMetric(String accountId, String namespace, String metricName, Map<String, String> dimensions,
                                    double value) {
        List<MetricKey.Dimension> dims = new java.util.ArrayList<>();
        dimensions.forEach((k, v) -> dims.add(new MetricKey.Dimension(k, v)));
        long now = clock.millis();
        try {
            services.record(accountId, List.of(new CustomMetrics.Point(new MetricKey(namespace, metricName, dims),
                    MetricSampler.minuteOf(now), 1, value, value, value, "Count")), MetricSampler.minuteOf(now));
        } catch (CloudWatchException limitReached) {
            // dropped: CloudWatch metrics are best-effort (AWS says so of the Scheduler's too)
        }
    }

    /** Told every request's outcome (the sizes of sent messages). */
    public RequestObserver observer() {
        return sizes;
    }

    /** Whether {@code raw} is a CloudWatch API request (RPC v2 CBOR path, Version 2010-08-01, SigV4 scope monitoring). */
    public boolean accepts(HttpRequestData raw) {
        return CloudWatchEndpoint.accepts(raw);
    }

    /** Answers a CloudWatch API request; never throws. */
    public HttpResponseData handle(HttpRequestData raw, String requestId) {
        return endpoint.handle(raw, requestId);
    }

    /** Answers a CloudWatch API request about the queues of {@code account} (the caller's); never throws. */
    public HttpResponseData handle(HttpRequestData raw, String requestId, String account) {
        return endpoint.forAccount(account).handle(raw, requestId);
    }

    /**
     * Answers a request of an authenticated caller: each operation is first authorized as its IAM
     * action ({@code cloudwatch:GetMetricData} ...; 403 AccessDenied otherwise), and the answers cover
     * only the caller's account's queues. Never throws.
     */
    public HttpResponseData handle(HttpRequestData raw, String requestId, CloudWatchCaller caller) {
        return endpoint.handle(raw, requestId, caller);
    }

    /**
     * Records the minute that just ended if the clock has entered a new one since the last sample, and
     * saves the history. @return whether a sample was recorded now
     */
    public boolean sampleNow() {
        boolean sampled = sampler != null && sampler.runDue();
        if (sampled) {
            recordServices(MetricSampler.minuteOf(clock.millis()) - 1);
            save();
        }
        alarms.evaluateDue(); // after the minute's sample: the alarms see the datapoints of the minute that ended
        return sampled;
    }

    /**
     * Evaluates every alarm if the clock entered a new minute since the last round (sampleNow does it
     * too). @return whether a round ran
     */
    public boolean evaluateAlarmsNow() {
        return alarms.evaluateDue();
    }

    /** Waits until the alarm actions handed over so far have run (tests; bounded by {@code timeoutMillis}). */
    public boolean awaitActions(long timeoutMillis) throws InterruptedException {
        long until = System.nanoTime() + timeoutMillis * 1_000_000;
        while (pendingActions.get() > 0) {
            if (System.nanoTime() > until) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    private void sampleNowQuietly() {
        try {
            sampleNow();
        } catch (RuntimeException e) {
            LOG.warn("CloudWatch metrics sample failed", e);
        }
    }

    private void save() {
        if (file == null) {
            return;
        }
        try {
            history.save(file, MetricSampler.minuteOf(clock.millis()));
        } catch (IOException e) {
            LOG.warn("CloudWatch metrics history cannot be saved to {}: {}", file, e.toString());
        }
        try {
            custom.save(customFile, MetricSampler.minuteOf(clock.millis()));
            services.save(servicesFile, MetricSampler.minuteOf(clock.millis()));
        } catch (IOException e) {
            LOG.warn("CloudWatch custom or service metrics cannot be saved to {}: {}", file.getParent(), e.toString());
        }
    }

    /** Stops sampling and saves the history. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            try {
                scheduler.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
        actions.shutdown();
        try {
            actions.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sampler != null) {
            save();
        }
        alarms.close();
    }
}
