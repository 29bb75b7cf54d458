package io.hikyaku.metrics;

import io.hikyaku.api.ServiceView;
import io.hikyaku.engine.IndexUsage;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The server's metrics: one Micrometer registry exposed as Prometheus / OpenMetrics text. Micrometer
 * (over the Prometheus Java client it uses for exposition) was chosen for its ready JVM binders
 * (memory, GC, threads), cheap cached meters and histograms with fixed buckets, and because other
 * backends (OTLP, StatsD) can be added later without touching the instrumentation.
 */
public final class HikyakuMetrics implements AutoCloseable {

    /** Prometheus text format 0.0.4 (what Prometheus asks for unless it prefers OpenMetrics). */
    public static final String TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    public static final String OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private JvmGcMetrics gc;
    private boolean jvmBound;
    private final QueueMetrics queues;
    private final RequestMetrics requests;
    private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();

    /** @param clock the service's clock (ages and the active-consumer window use it) */
    public HikyakuMetrics(Clock clock) {
        this.queues = new QueueMetrics(registry, clock);
        this.requests = new RequestMetrics(registry, queues, clock);
        beforeScrape.add(queues::refresh);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Per-queue gauges and engine events come from {@code service}. */
    public void watch(ServiceView service) {
        queues.watch(service);
        Gauge.builder(MetricNames.PARKED_LONG_POLLS, service, ServiceView::parkedReceives)
                .description("ReceiveMessage long polls waiting for messages").register(registry);
        if (service.indexUsage() != null) {
            indexGauge(service, MetricNames.INDEX_BUDGET, "Index entries allowed (--max-indexed-messages)", IndexUsage::budget);
            indexGauge(service, MetricNames.INDEXED_MESSAGES, "Messages in the in-memory index", IndexUsage::indexedMessages);
            indexGauge(service, MetricNames.SPILLED_MESSAGES,
                    "Messages past a queue's index window or the index budget, kept on disk only and paged in as queues drain (after a restart: those counted so far)", IndexUsage::spilledMessages);
            indexGauge(service, MetricNames.DEDUP_ENTRIES,
                    "FIFO deduplication entries in memory (they count against the budget, up to half of it)", IndexUsage::dedupEntries);
        }
    }

    private void indexGauge(ServiceView service, String name, String help, java.util.function.ToLongFunction<IndexUsage> value) {
        Gauge.builder(name, service, s -> {
            IndexUsage u = s.indexUsage();
            return u == null ? Double.NaN : value.applyAsLong(u);
        }).description(help).register(registry);
    }

    /** Counts requests and the per-queue effects of their results. */
    public RequestObserver requests() {
        return requests;
    }

    /** Runs {@code refresh} before every scrape (for values that are cheaper to read than to push). */
    public void beforeScrape(Runnable refresh) {
        beforeScrape.add(refresh);
    }

    /** The text a scrape returns and its content type. */
    public record Scrape(String contentType, byte[] body) {}

    /** @param accept the request's Accept header: OpenMetrics when it asks for it, else Prometheus text */
    public Scrape scrape(String accept) {
        bindJvmMetrics();
        for (Runnable r : beforeScrape) {
            r.run();
        }
        boolean openMetrics = accept != null && accept.contains("application/openmetrics-text");
        String type = openMetrics ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE;
        String text = registry.scrape(openMetrics ? "application/openmetrics-text" : "text/plain");
        return new Scrape(type, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * JVM and process metrics are bound at the first scrape, not at start: their management beans
     * cost a noticeable part of a start (~0.1 s). GC pauses before the first scrape are not counted.
     */
    private synchronized void bindJvmMetrics() {
        if (jvmBound) {
            return;
        }
        jvmBound = true;
        new JvmMemoryMetrics().bindTo(registry);
        gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    @Override
    public synchronized void close() {
        if (gc != null) {
            gc.close();
        }
        registry.close();
    }
}
