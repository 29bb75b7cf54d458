package io.hikyaku.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Server request metrics (by action, protocol, outcome; latency; errors by code) and the per-queue
 * counters that follow from results: messages sent (and their sizes), received, deleted, empty receives.
 */
final class RequestMetrics implements RequestObserver {

    /** The action label: a known action name, "unknown" for any other name, "none" when undecodable. */
    static final Set<String> ACTIONS = Set.of("CreateQueue", "DeleteQueue", "GetQueueUrl", "ListQueues",
            "GetQueueAttributes", "SetQueueAttributes", "PurgeQueue", "ListQueueTags", "TagQueue", "UntagQueue",
            "AddPermission", "RemovePermission", "ListDeadLetterSourceQueues", "SendMessage", "SendMessageBatch",
            "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility",
            "ChangeMessageVisibilityBatch", "StartMessageMoveTask", "ListMessageMoveTasks", "CancelMessageMoveTask",
            "GetMetricStatistics", "GetMetricData", "ListMetrics");

    private static final Duration[] BUCKETS = {Duration.ofNanos(250_000), Duration.ofMillis(1), Duration.ofMillis(2),
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20)};

    private final MeterRegistry registry;
    private final QueueMetrics queues;
    private final Clock clock;
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final Map<String, Timer> durations = new ConcurrentHashMap<>();
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();

    RequestMetrics(MeterRegistry registry, QueueMetrics queues, Clock clock) {
        this.registry = registry;
        this.queues = queues;
        this.clock = clock;
    }

    @Override
    public void completed(Exchange e, int status, String errorCode, ObjectNode result, long endNanos) {
        String action = e.action == null ? "none" : ACTIONS.contains(e.action) ? e.action : "unknown";
        String protocol = e.protocol == null ? "none" : e.protocol;
        String outcome = status < 400 ? "success" : status < 500 ? "client_error" : "server_error";
        String key = action + '|' + protocol;
        requestCounter(key + '|' + outcome, action, protocol, outcome).increment();
        timer(key, action, protocol).record(endNanos - e.startNanos, TimeUnit.NANOSECONDS);
        if (errorCode != null) {
            errorCounter(action + '|' + errorCode, action, errorCode).increment();
        } else if (result != null && e.queue != null) {
            countQueueEffects(e, result);
        }
    }

    private void countQueueEffects(Exchange e, ObjectNode result) {
        switch (e.action) {
            case "SendMessage" -> {
                QueueMeters m = queues.of(e.queue);
                m.sent.increment();
                m.sentSize.record(e.sentBytes);
            }
            case "SendMessageBatch" -> {
                JsonNode ok = result.get("Successful");
                if (ok != null && ok.size() > 0) {
                    QueueMeters m = queues.of(e.queue);
                    m.sent.increment(ok.size());
                    for (JsonNode entry : ok) {
                        Integer size = e.batchSentBytes == null ? null : e.batchSentBytes.get(Exchange.text(entry.get("Id")));
                        m.sentSize.record(size == null ? 0 : size);
                    }
                }
            }
            case "ReceiveMessage" -> {
                QueueMeters m = queues.of(e.queue);
                JsonNode messages = result.get("Messages");
                int n = messages == null ? 0 : messages.size();
                if (n == 0) {
                    m.emptyReceives.increment();
                } else {
                    m.received.increment(n);
                }
                queues.consumers.seen(e.queue, Consumers.receiverOf(e.principal, e.peer), clock.millis());
            }
            case "DeleteMessage" -> queues.of(e.queue).deleted.increment();
            case "DeleteMessageBatch" -> {
                JsonNode ok = result.get("Successful");
                if (ok != null && ok.size() > 0) {
                    queues.of(e.queue).deleted.increment(ok.size());
                }
            }
            default -> { }
        }
    }

    private Counter requestCounter(String key, String action, String protocol, String outcome) {
        Counter c = requests.get(key);
        return c != null ? c : requests.computeIfAbsent(key, k -> Counter.builder(MetricNames.REQUESTS)
                .description("Requests answered, by action, protocol and outcome")
                .tags("action", action, "protocol", protocol, "outcome", outcome).register(registry));
    }

    private Timer timer(String key, String action, String protocol) {
        Timer t = durations.get(key);
        return t != null ? t : durations.computeIfAbsent(key, k -> Timer.builder(MetricNames.REQUEST_DURATION)
                .description("Time from a decoded request to its answer (long polls included)")
                .tags("action", action, "protocol", protocol).serviceLevelObjectives(BUCKETS).register(registry));
    }

    private Counter errorCounter(String key, String action, String code) {
        Counter c = errors.get(key);
        return c != null ? c : errors.computeIfAbsent(key, k -> Counter.builder(MetricNames.REQUEST_ERRORS)
                .description("Error answers, by action and error code")
                .tags("action", action, "code", code).register(registry));
    }
}
