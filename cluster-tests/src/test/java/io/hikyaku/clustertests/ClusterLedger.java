package io.hikyaku.clustertests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the clients of a cluster run saw, and the checks on it (the categories of RabbitMQ's Jepsen
 * checker). Every send attempt has its own body, so a body names one attempt: an attempt that failed
 * (unknown outcome) may or may not exist; an acknowledged one (the message id its answer named) must be
 * received. One attempt may store two messages with the same body (a forwarded request is delivered to
 * the leader at least once: when the leader changes mid-request it can run twice), so deletes and
 * resurrections are tracked by message id. A delete counts as acknowledged only when its 200 came while
 * its receipt was surely still in flight (within the visibility timeout less a margin of its
 * receive's start): a stale receipt's outcome is not checked.
 */
final class ClusterLedger {

    /** One receive's message and when the receive was requested. */
    record Received(String body, String messageId, long requestedNanos) {}

    final Set<String> attempted = ConcurrentHashMap.newKeySet();
    /** Acknowledged sends: body to the message id the answer named. */
    final Map<String, String> ackedSends = new ConcurrentHashMap<>();
    /** Acknowledged deletes: message id to when. */
    final Map<String, Long> ackedDeletes = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();

    void attempt(String body) {
        attempted.add(body);
    }

    void sendAcked(String body, String messageId) {
        ackedSends.put(body, messageId);
    }

    void received(String body, String messageId, long requestedNanos) {
        received.add(new Received(body, messageId, requestedNanos));
    }

    void deleteAcked(String messageId, long nanos) {
        ackedDeletes.put(messageId, nanos);
    }

    /** Acknowledged sends whose message (the id the answer named) was never received. */
    List<String> lost() {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        received.forEach(r -> seen.add(r.messageId()));
        return ackedSends.entrySet().stream().filter(e -> !seen.contains(e.getValue()))
                .map(e -> e.getKey() + " (" + e.getValue() + ")").sorted().toList();
    }

    /** Bodies received under more than one message id: one send attempt stored twice. */
    long storedTwice() {
        Map<String, Set<String>> ids = new ConcurrentHashMap<>();
        received.forEach(r -> ids.computeIfAbsent(r.body(), b -> ConcurrentHashMap.newKeySet()).add(r.messageId()));
        return ids.values().stream().filter(s -> s.size() > 1).count();
    }

    /** Received bodies nobody sent. */
    List<String> unexpected() {
        return received.stream().map(Received::body).filter(b -> !attempted.contains(b)).distinct().sorted().toList();
    }

    /** Receives requested after the message's delete was acknowledged that still returned it. */
    List<String> resurrected() {
        List<String> out = new ArrayList<>();
        for (Received r : received) {
            Long deleted = ackedDeletes.get(r.messageId());
            if (deleted != null && r.requestedNanos() > deleted) {
                out.add(r.body() + " (" + r.messageId() + ")");
            }
        }
        return out;
    }

    /** Attempts whose outcome was unknown to the client and which turned up anyway. */
    long recovered() {
        return received.stream().map(Received::body).distinct().filter(b -> !ackedSends.containsKey(b)).count();
    }

    /** Messages received more than once (allowed for a standard queue, reported). */
    long duplicated() {
        Map<String, Integer> counts = new ConcurrentHashMap<>();
        received.forEach(r -> counts.merge(r.messageId(), 1, Integer::sum));
        return counts.values().stream().filter(n -> n > 1).count();
    }
}
