package io.hikyaku.server.push;

import io.hikyaku.push.MappingMetrics;
import io.hikyaku.push.PushService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Push delivery's per-mapping counters as meters of the server's registry (labels {@code uuid},
 * {@code function}, {@code account}, {@code queue}). The counters live in the push module; the meters
 * only read them, at scrape time, so delivery pays nothing for being observed. Before each scrape the
 * meters follow the mappings: a new mapping gets its series, a deleted one (or one whose function changed,
 * a new label set) loses them. docs/operations.md "Monitoring" lists the names.
 */
public final class PushMeters {

    static final String INVOCATIONS = "hikyaku.push.invocations";
    static final String ERRORS = "hikyaku.push.errors";
    static final String ITEM_FAILURES = "hikyaku.push.item.failures";
    static final String DELIVERED = "hikyaku.push.messages.delivered";
    static final String DELETED = "hikyaku.push.messages.deleted";
    static final String FILTERED = "hikyaku.push.messages.filtered";
    static final String LAST_BATCH = "hikyaku.push.last.batch.size";
    static final String MAX_BATCH = "hikyaku.push.max.batch.size";
    static final String CONCURRENCY = "hikyaku.push.concurrency";
    static final String POLLERS = "hikyaku.push.pollers";
    static final String OLDEST_AGE = "hikyaku.push.oldest.message.age";

    private final MeterRegistry registry;
    private final Supplier<PushService> push;
    /** Meters per mapping, under the label set they were registered with. guarded by this */
    private final Map<Tags, Registered> meters = new HashMap<>();

    /** A mapping's counters (held here: Micrometer's function counters keep only a weak reference) and its meters. */
    private record Registered(MappingMetrics source, List<Meter> meters) {}

    /** @param push the running push service, or null while there is none (before start, after stop) */
    public PushMeters(MeterRegistry registry, Supplier<PushService> push) {
        this.registry = registry;
        this.push = push;
    }

    /** Brings the meters in line with the mappings that exist now (run before every scrape). */
    public synchronized void refresh() {
        PushService service = push.get();
        Set<Tags> live = new HashSet<>();
        if (service != null) {
            for (MappingMetrics m : service.metrics()) {
                Tags tags = tags(m);
                live.add(tags);
                meters.computeIfAbsent(tags, t -> new Registered(m, register(m, t)));
            }
        }
        meters.entrySet().removeIf(e -> {
            if (live.contains(e.getKey())) {
                return false;
            }
            e.getValue().meters().forEach(registry::remove);
            return true;
        });
    }

    private static Tags tags(MappingMetrics m) {
        // eventSourceArn is arn:aws:sqs:{region}:{account}:{queue}
        String[] arn = m.eventSourceArn().split(":", 6);
        String account = arn.length == 6 ? arn[4] : "";
        String queue = arn.length == 6 ? arn[5] : m.eventSourceArn();
        return Tags.of("uuid", m.uuid(), "function", m.functionName(), "account", account, "queue", queue);
    }

    private List<Meter> register(MappingMetrics m, Tags tags) {
        List<Meter> list = new ArrayList<>();
        list.add(counter(INVOCATIONS, "Calls made to the function", m, tags, MappingMetrics::invocations));
        list.add(counter(ERRORS, "Calls that failed as a whole (non-2xx, timeout, connection error, unreadable batch response)",
                m, tags, MappingMetrics::errors));
        list.add(counter(ITEM_FAILURES, "Messages the function reported failed in batchItemFailures", m, tags, MappingMetrics::itemFailures));
        list.add(counter(DELIVERED, "Messages sent to the function (the sum of batch sizes)", m, tags, MappingMetrics::messagesDelivered));
        list.add(counter(DELETED, "Messages deleted after the function processed them", m, tags, MappingMetrics::messagesDeleted));
        list.add(counter(FILTERED, "Messages deleted because they matched no filter", m, tags, MappingMetrics::messagesFiltered));
        list.add(gauge(LAST_BATCH, "Messages in the latest batch", null, m, tags, MappingMetrics::lastBatchSize));
        list.add(gauge(MAX_BATCH, "Messages in the largest batch so far", null, m, tags, MappingMetrics::maxBatchSize));
        list.add(gauge(CONCURRENCY, "Calls to the function in flight", null, m, tags, MappingMetrics::concurrency));
        list.add(gauge(POLLERS, "Pollers running (1 up to the mapping's maximum concurrency)", null, m, tags, MappingMetrics::pollers));
        list.add(gauge(OLDEST_AGE, "Age of the oldest message of the latest batch when it was sent to the function", "seconds",
                m, tags, x -> x.oldestMessageAgeMillis() / 1000.0));
        return list;
    }

    private Meter counter(String name, String help, MappingMetrics m, Tags tags, ToDoubleFunction<MappingMetrics> value) {
        return FunctionCounter.builder(name, m, value).description(help).tags(tags).register(registry); // m is held by `meters`
    }

    private Meter gauge(String name, String help, String unit, MappingMetrics m, Tags tags, ToDoubleFunction<MappingMetrics> value) {
        Gauge.Builder<MappingMetrics> b = Gauge.builder(name, m, value).description(help).tags(tags).strongReference(true);
        if (unit != null) {
            b.baseUnit(unit);
        }
        return b.register(registry);
    }
}
