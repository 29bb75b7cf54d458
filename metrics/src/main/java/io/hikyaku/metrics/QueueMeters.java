package io.hikyaku.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/** The counters of one queue (CloudWatch's AWS/SQS counting metrics, per account and queue name). */
final class QueueMeters {

    final Counter sent;
    final Counter received;
    final Counter deleted;
    final Counter emptyReceives;
    final Counter deduplicated;
    final Counter refusedForMemory;
    final DistributionSummary sentSize;

    QueueMeters(MeterRegistry registry, QueueKey queue) {
        Tags tags = MetricNames.queueTags(queue);
        sent = counter(registry, MetricNames.MESSAGES_SENT, "Messages added to the queue (CloudWatch NumberOfMessagesSent)", tags);
        received = counter(registry, MetricNames.MESSAGES_RECEIVED, "Messages returned by ReceiveMessage (NumberOfMessagesReceived)", tags);
        deleted = counter(registry, MetricNames.MESSAGES_DELETED, "Messages deleted (NumberOfMessagesDeleted)", tags);
        emptyReceives = counter(registry, MetricNames.EMPTY_RECEIVES, "ReceiveMessage calls that returned no message (NumberOfEmptyReceives)", tags);
        deduplicated = counter(registry, MetricNames.DEDUPLICATED, "FIFO sends accepted as duplicates (NumberOfDeduplicatedSentMessages)", tags);
        refusedForMemory = counter(registry, MetricNames.SENDS_REFUSED_FOR_MEMORY,
                "Send calls refused with RequestThrottled because the in-memory index budget is used up", tags);
        sentSize = DistributionSummary.builder(MetricNames.SENT_MESSAGE_SIZE).description("Size of messages added to the queue (SentMessageSize)")
                .baseUnit("bytes").tags(tags).register(registry);
    }

    private static Counter counter(MeterRegistry registry, String name, String help, Tags tags) {
        return Counter.builder(name).description(help).tags(tags).register(registry);
    }

    List<Meter> all() {
        return List.of(sent, received, deleted, emptyReceives, deduplicated, refusedForMemory, sentSize);
    }
}
