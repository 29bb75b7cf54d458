package io.hikyaku.server.sns;

import io.hikyaku.sns.SnsService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SNS's counters in {@code /metrics}: CloudWatch's AWS/SNS names (NumberOfMessagesPublished,
 * NumberOfNotificationsDelivered, NumberOfNotificationsFailed, NumberOfNotificationsFilteredOut) as
 * {@code hikyaku_sns_*_total} counters, and the HTTP outbox's gauges (pending, in flight, capacity) and
 * counters (retried, dead-lettered, refused because full), read from the running service at each scrape
 * (zero while SNS is not started).
 */
public final class SnsMeters {

    private final Supplier<SnsService> sns;

    private SnsMeters(Supplier<SnsService> sns) {
        this.sns = sns;
    }

    /** Micrometer holds meter state weakly: the gauges hold this object strongly, and the counters share it. */
    public static void bind(MeterRegistry registry, Supplier<SnsService> service) {
        SnsMeters sns = new SnsMeters(service);
        counter(registry, sns, "hikyaku.sns.messages.published", "NumberOfMessagesPublished",
                "Messages published to SNS topics (AWS/SNS NumberOfMessagesPublished)");
        counter(registry, sns, "hikyaku.sns.notifications.delivered", "NumberOfNotificationsDelivered",
                "Notifications delivered to queues and HTTP/S endpoints (AWS/SNS NumberOfNotificationsDelivered)");
        counter(registry, sns, "hikyaku.sns.notifications.failed", "NumberOfNotificationsFailed",
                "Notifications that failed for good (AWS/SNS NumberOfNotificationsFailed)");
        counter(registry, sns, "hikyaku.sns.notifications.filtered.out", "NumberOfNotificationsFilteredOut",
                "Notifications a subscription's filter policy dropped (AWS/SNS NumberOfNotificationsFilteredOut)");
        counter(registry, sns, "hikyaku.sns.notifications.denied.by.queue.policy", "NotificationsDeniedByQueuePolicy",
                "Queue deliveries the target queue's policy denied to sns.amazonaws.com");
        counter(registry, sns, "hikyaku.sns.http.deliveries.retried", "HttpDeliveriesRetried",
                "HTTP/S delivery attempts scheduled again after a failure");
        counter(registry, sns, "hikyaku.sns.http.deliveries.dead.lettered", "HttpDeliveriesDeadLettered",
                "HTTP/S deliveries that failed for good and went to the subscription's DLQ");
        counter(registry, sns, "hikyaku.sns.http.outbox.full.refusals", "HttpOutboxFullRefusals",
                "Publishes and subscribes refused (Throttled) because the HTTP outbox was full");
        gauge(registry, sns, "hikyaku.sns.http.deliveries.pending", "HttpDeliveriesPending",
                "HTTP/S deliveries queued, waiting to retry or in flight");
        gauge(registry, sns, "hikyaku.sns.http.deliveries.in.flight", "HttpDeliveriesInFlight",
                "HTTP/S POSTs being sent now");
        gauge(registry, sns, "hikyaku.sns.http.outbox.capacity", "HttpOutboxCapacity",
                "HTTP/S deliveries the outbox holds at most");
    }

    private double read(String name) {
        SnsService s = sns.get();
        if (s == null) {
            return 0;
        }
        Map<String, Long> counters = s.counters();
        Long v = counters.get(name);
        return v == null ? 0 : v;
    }

    private static void counter(MeterRegistry registry, SnsMeters sns, String meter, String name, String help) {
        FunctionCounter.builder(meter, sns, s -> s.read(name)).description(help).register(registry);
    }

    private static void gauge(MeterRegistry registry, SnsMeters sns, String meter, String name, String help) {
        Gauge.builder(meter, sns, s -> s.read(name)).description(help).strongReference(true).register(registry);
    }
}
