package io.hikyaku.metrics;

import io.hikyaku.protocol.WireProtocol;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The request meters, resolved once per label set and then held in arrays indexed by action,
 * protocol and outcome: a request finds its counter and timer by index, without building a key or
 * a tag list. Meters are still registered on first use only, so /metrics shows the label sets seen.
 */
final class RequestMeters {

    /** The action label: a known action name, "unknown" for any other name, "none" when undecodable. */
    static final List<String> KNOWN_ACTIONS = List.of("CreateQueue", "DeleteQueue", "GetQueueUrl", "ListQueues",
            "GetQueueAttributes", "SetQueueAttributes", "PurgeQueue", "ListQueueTags", "TagQueue", "UntagQueue",
            "AddPermission", "RemovePermission", "ListDeadLetterSourceQueues", "SendMessage", "SendMessageBatch",
            "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility",
            "ChangeMessageVisibilityBatch", "StartMessageMoveTask", "ListMessageMoveTasks", "CancelMessageMoveTask",
            "GetMetricStatistics", "GetMetricData", "ListMetrics");
    private static final int UNKNOWN = KNOWN_ACTIONS.size();
    private static final int NONE = UNKNOWN + 1;
    private static final String[] ACTIONS = actionLabels();
    private static final Map<String, Integer> ACTION_INDEX = actionIndex();
    /** "none", then each wire protocol's name in lower case, by ordinal + 1. */
    static final String[] PROTOCOLS = protocolLabels();
    private static final String[] OUTCOMES = {"success", "client_error", "server_error"};

    private static final Duration[] BUCKETS = {Duration.ofNanos(250_000), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20)};

    private final MeterRegistry registry;
    private final AtomicReferenceArray<Counter> requests = new AtomicReferenceArray<>(ACTIONS.length * PROTOCOLS.length * OUTCOMES.length);
    private final AtomicReferenceArray<Timer> durations = new AtomicReferenceArray<>(ACTIONS.length * PROTOCOLS.length);
    /** Error counters by action index, then by error code (codes are open-ended, and rare). */
    private final AtomicReferenceArray<Map<String, Counter>> errors = new AtomicReferenceArray<>(ACTIONS.length);

    RequestMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The index of {@code action}'s label (one hash lookup). */
    static int action(String action) {
        if (action == null) {
            return NONE;
        }
        Integer i = ACTION_INDEX.get(action);
        return i == null ? UNKNOWN : i;
    }

    static int protocol(WireProtocol protocol) {
        return protocol == null ? 0 : protocol.ordinal() + 1;
    }

    static int outcome(int status) {
        return status < 400 ? 0 : status < 500 ? 1 : 2;
    }

    // Two threads may register the same meter at once: the registry hands both the same one.

    Counter requests(int action, int protocol, int outcome) {
        int i = (action * PROTOCOLS.length + protocol) * OUTCOMES.length + outcome;
        Counter c = requests.get(i);
        if (c == null) {
            c = Counter.builder(MetricNames.REQUESTS).description("Requests answered, by action, protocol and outcome")
                    .tags("action", ACTIONS[action], "protocol", PROTOCOLS[protocol], "outcome", OUTCOMES[outcome])
                    .register(registry);
            requests.set(i, c);
        }
        return c;
    }

    Timer duration(int action, int protocol) {
        int i = action * PROTOCOLS.length + protocol;
        Timer t = durations.get(i);
        if (t == null) {
            t = Timer.builder(MetricNames.REQUEST_DURATION)
                    .description("Time from a decoded request to its answer (long polls included)")
                    .tags("action", ACTIONS[action], "protocol", PROTOCOLS[protocol]).serviceLevelObjectives(BUCKETS)
                    .register(registry);
            durations.set(i, t);
        }
        return t;
    }

    Counter errors(int action, String code) {
        Map<String, Counter> byCode = errors.get(action);
        if (byCode == null) {
            errors.compareAndSet(action, null, new ConcurrentHashMap<>());
            byCode = errors.get(action);
        }
        Counter c = byCode.get(code);
        return c != null ? c : byCode.computeIfAbsent(code, k -> Counter.builder(MetricNames.REQUEST_ERRORS)
                .description("Error answers, by action and error code").tags("action", ACTIONS[action], "code", code)
                .register(registry));
    }

    private static String[] actionLabels() {
        String[] labels = KNOWN_ACTIONS.toArray(new String[KNOWN_ACTIONS.size() + 2]);
        labels[UNKNOWN] = "unknown";
        labels[NONE] = "none";
        return labels;
    }

    private static Map<String, Integer> actionIndex() {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < KNOWN_ACTIONS.size(); i++) {
            index.put(KNOWN_ACTIONS.get(i), i);
        }
        return Map.copyOf(index);
    }

    private static String[] protocolLabels() {
        WireProtocol[] all = WireProtocol.values();
        String[] labels = new String[all.length + 1];
        labels[0] = "none";
        for (WireProtocol p : all) {
            labels[p.ordinal() + 1] = p.name().toLowerCase(Locale.ROOT);
        }
        return labels;
    }
}
