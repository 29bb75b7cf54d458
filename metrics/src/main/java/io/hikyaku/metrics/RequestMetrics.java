package io.hikyaku.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * Server request metrics (by action, protocol, outcome; latency; errors by code) and the per-queue
 * counters that follow from results: messages sent (and their sizes), received, deleted, empty receives.
 */
final class RequestMetrics implements RequestObserver {

    private final RequestMeters meters;
    private final QueueMetrics queues;
    private final Clock clock;

    RequestMetrics(MeterRegistry registry, QueueMetrics queues, Clock clock) {
        this.meters = new RequestMeters(registry);
        this.queues = queues;
        this.clock = clock;
    }

    @Override
    public void completed(Exchange e, int status, String errorCode, ObjectNode result, long endNanos) {
        int action = RequestMeters.action(e.action);
        int protocol = RequestMeters.protocol(e.wire);
        meters.requests(action, protocol, RequestMeters.outcome(status)).increment();
        meters.duration(action, protocol).record(endNanos - e.startNanos, TimeUnit.NANOSECONDS);
        if (errorCode != null) {
            meters.errors(action, errorCode).increment();
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
}
