package io.hikyaku.push;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The live counters of one mapping (thread-safe, lock-free). */
final class MappingCounters implements MappingMetrics {

    private final String uuid;
    private volatile String functionName;
    private final String eventSourceArn;
    final AtomicLong invocations = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong itemFailures = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong filtered = new AtomicLong();
    final AtomicLong deleted = new AtomicLong();
    final AtomicInteger maxBatch = new AtomicInteger();
    final AtomicInteger lastBatch = new AtomicInteger();
    final AtomicInteger concurrency = new AtomicInteger();
    final AtomicInteger pollers = new AtomicInteger();
    final AtomicLong oldestAge = new AtomicLong();

    MappingCounters(String uuid, String functionName, String eventSourceArn) {
        this.uuid = uuid;
        this.functionName = functionName;
        this.eventSourceArn = eventSourceArn;
    }

    void functionName(String name) {
        this.functionName = name;
    }

    void batch(int size, long oldestAgeMillis) {
        invocations.incrementAndGet();
        delivered.addAndGet(size);
        lastBatch.set(size);
        maxBatch.accumulateAndGet(size, Math::max);
        oldestAge.set(oldestAgeMillis);
    }

    @Override public String uuid() { return uuid; }
    @Override public String functionName() { return functionName; }
    @Override public String eventSourceArn() { return eventSourceArn; }
    @Override public long invocations() { return invocations.get(); }
    @Override public long errors() { return errors.get(); }
    @Override public long itemFailures() { return itemFailures.get(); }
    @Override public long messagesDelivered() { return delivered.get(); }
    @Override public long messagesFiltered() { return filtered.get(); }
    @Override public long messagesDeleted() { return deleted.get(); }
    @Override public int maxBatchSize() { return maxBatch.get(); }
    @Override public int lastBatchSize() { return lastBatch.get(); }
    @Override public int concurrency() { return concurrency.get(); }
    @Override public int pollers() { return pollers.get(); }
    @Override public long oldestMessageAgeMillis() { return oldestAge.get(); }

    @Override
    public String toString() {
        return "mapping " + uuid + " (" + eventSourceArn + " -> " + functionName + "): invocations=" + invocations()
                + " errors=" + errors() + " itemFailures=" + itemFailures() + " delivered=" + messagesDelivered()
                + " deleted=" + messagesDeleted() + " filtered=" + messagesFiltered() + " lastBatch=" + lastBatchSize()
                + " maxBatch=" + maxBatchSize() + " concurrency=" + concurrency() + " pollers=" + pollers()
                + " oldestMessageAgeMs=" + oldestMessageAgeMillis();
    }
}
