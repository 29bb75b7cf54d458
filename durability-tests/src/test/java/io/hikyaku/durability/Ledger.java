package io.hikyaku.durability;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the clients know about one queue: what they tried, what the server acknowledged, what they
 * received. The invariants are checked against it after every restart and at the end.
 */
final class Ledger {

    final String queueName;
    final boolean fifo;
    /** Every body a SendMessage was attempted for (outcome maybe unknown). */
    final Set<String> sendAttempted = ConcurrentHashMap.newKeySet();
    /** Body -> FIFO SequenceNumber ("" for standard queues) of every acknowledged send. */
    final Map<String, String> sendAcked = new ConcurrentHashMap<>();
    /** Body -> System.nanoTime() when its DeleteMessage was acknowledged. */
    final Map<String, Long> deleteAcked = new ConcurrentHashMap<>();
    /**
     * Bodies whose SendMessage was answered 503 ServiceUnavailable: the server promises nothing was
     * stored, so receiving one is a violation (a phantom).
     */
    final Set<String> sendRefused = ConcurrentHashMap.newKeySet();
    /** Bodies whose DeleteMessage was attempted without an acknowledgement (outcome unknown). */
    final Set<String> deleteUnknown = ConcurrentHashMap.newKeySet();
    /** Bodies received, in order, by this queue's consumers (one consumer for FIFO). */
    final List<String> received = Collections.synchronizedList(new ArrayList<>());
    /** Bodies found in the final drain. */
    final List<String> drained = Collections.synchronizedList(new ArrayList<>());
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());

    Ledger(String queueName, boolean fifo) {
        this.queueName = queueName;
        this.fifo = fifo;
    }

    void violation(String message) {
        violations.add(queueName + ": " + message);
    }

    /** Called for every received copy, with the time its ReceiveMessage request was sent. */
    void onReceive(String body, String sequenceNumber, long requestSentNanos) {
        if (!sendAttempted.contains(body)) {
            violation("received a message nobody sent: " + body);
        }
        if (sendRefused.contains(body)) {
            violation("phantom: received " + body + ", whose SendMessage was answered 503 ServiceUnavailable");
        }
        Long deletedAt = deleteAcked.get(body);
        if (deletedAt != null && requestSentNanos > deletedAt) {
            violation("an acknowledged delete came back: " + body);
        }
        String ackedSequence = sendAcked.get(body);
        if (fifo && ackedSequence != null && !ackedSequence.equals(sequenceNumber)) {
            violation("sequence number of " + body + " changed from " + ackedSequence + " to " + sequenceNumber);
        }
        received.add(body);
    }

    /** Messages that must be in the queue now: acknowledged, and not (possibly) deleted. */
    long mustHaveAtLeast() {
        return sendAcked.keySet().stream()
                .filter(b -> !deleteAcked.containsKey(b) && !deleteUnknown.contains(b)).count();
    }

    /** Messages that may be in the queue now: attempted, and not certainly deleted. */
    long mayHaveAtMost() {
        return sendAttempted.stream().filter(b -> !deleteAcked.containsKey(b) && !sendRefused.contains(b)).count();
    }
}
