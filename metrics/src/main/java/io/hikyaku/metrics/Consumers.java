package io.hikyaku.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Active consumers per queue: distinct receivers that called ReceiveMessage on the queue within the
 * last {@link #WINDOW_MILLIS}. A receiver is an access key id together with the client's IP address
 * (not its port: one worker process keeps several pooled connections). Workers that share a key on
 * one host therefore count as one; workers on different hosts or with different keys count apart.
 */
final class Consumers {

    static final long WINDOW_MILLIS = 60_000;
    /** Bounds memory when clients churn addresses: beyond this many receivers a queue counts no more. */
    static final int MAX_PER_QUEUE = 10_000;

    private final Map<QueueKey, Map<String, Long>> lastSeen = new ConcurrentHashMap<>();

    void seen(QueueKey queue, String receiver, long nowMillis) {
        Map<String, Long> receivers = lastSeen.computeIfAbsent(queue, q -> new ConcurrentHashMap<>());
        if (receivers.size() < MAX_PER_QUEUE || receivers.containsKey(receiver)) {
            receivers.put(receiver, nowMillis);
        }
    }

    /** Receivers of {@code queue} seen within the window ending at {@code nowMillis}; forgets older ones. */
    int active(QueueKey queue, long nowMillis) {
        Map<String, Long> receivers = lastSeen.get(queue);
        if (receivers == null) {
            return 0;
        }
        receivers.values().removeIf(at -> at <= nowMillis - WINDOW_MILLIS);
        return receivers.size();
    }

    void forget(QueueKey queue) {
        lastSeen.remove(queue);
    }

    static String receiverOf(String principal, String peer) {
        return (principal == null ? "-" : principal) + "@" + (peer == null ? "-" : peer);
    }
}
