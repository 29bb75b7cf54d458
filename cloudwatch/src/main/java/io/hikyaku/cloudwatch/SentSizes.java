package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.metrics.Exchange;
import io.hikyaku.metrics.QueueKey;
import io.hikyaku.metrics.RequestObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sizes of the messages sent to each queue since the last sample (count, sum, minimum, maximum):
 * SentMessageSize needs the minute's minimum and maximum, which the Prometheus counters do not keep.
 */
final class SentSizes implements RequestObserver {

    /** One queue's sizes since the last drain. */
    static final class Sizes {
        long count;
        long sum;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;

        synchronized void add(long size) {
            count++;
            sum += size;
            min = Math.min(min, size);
            max = Math.max(max, size);
        }
    }

    private final Map<QueueKey, Sizes> sizes = new ConcurrentHashMap<>();

    @Override
    public void completed(Exchange e, int status, String errorCode, ObjectNode result, long endNanos) {
        if (errorCode != null || result == null || e.queue() == null || e.action() == null) {
            return;
        }
        if (e.action().equals("SendMessage")) {
            of(e.queue()).add(e.sentBytes());
        } else if (e.action().equals("SendMessageBatch")) {
            JsonNode ok = result.get("Successful");
            if (ok != null && ok.size() > 0) {
                Sizes s = of(e.queue());
                for (JsonNode entry : ok) {
                    JsonNode id = entry.get("Id");
                    Integer size = e.batchSentBytes() == null || id == null ? null : e.batchSentBytes().get(id.asText());
                    s.add(size == null ? 0 : size);
                }
            }
        }
    }

    private Sizes of(QueueKey q) {
        Sizes s = sizes.get(q);
        return s != null ? s : sizes.computeIfAbsent(q, k -> new Sizes());
    }

    /** The sizes of {@code queue} since the last call, or null when none was sent; starts a new period. */
    Sizes drain(QueueKey queue) {
        return sizes.remove(queue);
    }

    /** Forgets every queue's sizes (sizes of queues that no longer exist). */
    void clear() {
        sizes.clear();
    }
}
