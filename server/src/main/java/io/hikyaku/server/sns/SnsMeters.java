package io.hikyaku.server.sns;

import io.hikyaku.sns.SnsService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SNS's counters in {@code /metrics}: CloudWatch's AWS/SNS names (NumberOfMessagesPublished,
 * NumberOfNotificationsDelivered, NumberOfNotificationsFailed, NumberOfNotificationsFilteredOut, the DLQ redrives) as
 * {@code hikyaku_sns_*_total} counters, and the HTTP outbox's gauges (pending, in flight, capacity) and counters
 * (retried, dead-lettered, refused because full), read from the running service at each scrape (zero while SNS is
 * not started). Server-wide; per topic they are in the CloudWatch API ({@link SnsCloudWatchMetrics}).
 */
public final class SnsMeters {

    /** One meter a line: kind, Micrometer name, the service's counter name, help text. */
    private static final String METERS = """
            counter hikyaku.sns.messages.published NumberOfMessagesPublished Messages published to SNS topics (AWS/SNS NumberOfMessagesPublished)
            counter hikyaku.sns.notifications.delivered NumberOfNotificationsDelivered Notifications delivered to queues and HTTP/S endpoints (AWS/SNS NumberOfNotificationsDelivered)
            counter hikyaku.sns.notifications.failed NumberOfNotificationsFailed Notifications that failed for good (AWS/SNS NumberOfNotificationsFailed)
            counter hikyaku.sns.notifications.filtered.out NumberOfNotificationsFilteredOut Notifications a subscription's filter policy dropped (AWS/SNS NumberOfNotificationsFilteredOut)
            counter hikyaku.sns.notifications.filtered.out.no.message.attributes NumberOfNotificationsFilteredOut-NoMessageAttributes Notifications filtered out because the message had no attributes (AWS/SNS NumberOfNotificationsFilteredOut-NoMessageAttributes)
            counter hikyaku.sns.notifications.filtered.out.invalid.attributes NumberOfNotificationsFilteredOut-InvalidAttributes Notifications filtered out because an attribute was malformed (AWS/SNS NumberOfNotificationsFilteredOut-InvalidAttributes)
            counter hikyaku.sns.notifications.filtered.out.invalid.message.body NumberOfNotificationsFilteredOut-InvalidMessageBody Notifications filtered out because the body is not a JSON object under a body-scope policy (AWS/SNS NumberOfNotificationsFilteredOut-InvalidMessageBody)
            counter hikyaku.sns.notifications.redriven.to.dlq NumberOfNotificationsRedrivenToDlq Failed notifications moved to the subscription's DLQ (AWS/SNS NumberOfNotificationsRedrivenToDlq)
            counter hikyaku.sns.notifications.failed.to.redrive.to.dlq NumberOfNotificationsFailedToRedriveToDlq Failed notifications the subscription's DLQ did not take (AWS/SNS NumberOfNotificationsFailedToRedriveToDlq)
            counter hikyaku.sns.notifications.denied.by.queue.policy NotificationsDeniedByQueuePolicy Queue deliveries the target queue's policy denied to sns.amazonaws.com
            counter hikyaku.sns.queue.deliveries.retried QueueDeliveriesRetried Queue delivery attempts scheduled again after a server-side refusal
            counter hikyaku.sns.http.deliveries.retried HttpDeliveriesRetried HTTP/S delivery attempts scheduled again after a failure
            counter hikyaku.sns.http.deliveries.dead.lettered HttpDeliveriesDeadLettered HTTP/S deliveries that failed for good and went to the subscription's DLQ
            counter hikyaku.sns.http.deliveries.throttled HttpDeliveriesThrottled HTTP/S delivery attempts held back by the subscription's throttlePolicy.maxReceivesPerSecond
            counter hikyaku.sns.http.outbox.full.refusals HttpOutboxFullRefusals Publishes and subscribes refused (Throttled) because the HTTP outbox was full
            gauge hikyaku.sns.http.deliveries.pending HttpDeliveriesPending HTTP/S deliveries queued, waiting to retry or in flight
            gauge hikyaku.sns.http.deliveries.in.flight HttpDeliveriesInFlight HTTP/S POSTs being sent now
            gauge hikyaku.sns.http.outbox.capacity HttpOutboxCapacity HTTP/S deliveries the outbox holds at most
            """;

    private final Supplier<SnsService> sns;

    private SnsMeters(Supplier<SnsService> sns) {
        this.sns = sns;
    }

    /** Micrometer holds meter state weakly: the gauges hold this object strongly, and the counters share it. */
    public static void bind(MeterRegistry registry, Supplier<SnsService> service) {
        SnsMeters sns = new SnsMeters(service);
        for (String line : METERS.strip().split("\n")) {
            String[] f = line.strip().split(" ", 4);
            String name = f[2];
            if (f[0].equals("gauge")) {
                Gauge.builder(f[1], sns, s -> s.read(name)).description(f[3]).strongReference(true).register(registry);
            } else {
                FunctionCounter.builder(f[1], sns, s -> s.read(name)).description(f[3]).register(registry);
            }
        }
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
}
