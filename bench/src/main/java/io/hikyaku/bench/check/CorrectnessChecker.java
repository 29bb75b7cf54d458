package io.hikyaku.bench.check;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Tracks every message of a run by its unique seq: which were acknowledged as sent, received
 * (first time and again) and deleted. For FIFO runs it also checks that, per group, the first
 * receipts arrive in increasing groupSeq order. Synchronized: callbacks come from I/O threads.
 */
public final class CorrectnessChecker {
    private final BitSet sent = new BitSet();
    private final BitSet received = new BitSet();
    private final BitSet deleted = new BitSet();
    private final Map<Integer, Long> lastGroupSeq = new HashMap<>();
    private final boolean checkOrder;
    private long sentCount;
    private long receivedCount;
    private long deletedCount;
    private long duplicates;
    private long orderViolations;
    private long unknown;

    public CorrectnessChecker(boolean checkOrder) {
        this.checkOrder = checkOrder;
    }

    public synchronized void sent(long seq) {
        if (!sent.get(index(seq))) {
            sent.set(index(seq));
            sentCount++;
        }
    }

    /** Records a receipt; returns true if this is the first time the message was seen. */
    public synchronized boolean received(MessageBody body) {
        if (body == null) {
            unknown++;
            return false;
        }
        int i = index(body.seq());
        if (received.get(i)) {
            duplicates++;
            return false;
        }
        received.set(i);
        receivedCount++;
        if (checkOrder) {
            Long last = lastGroupSeq.get(body.group());
            if (last != null && body.groupSeq() < last) {
                orderViolations++;
            }
            if (last == null || body.groupSeq() > last) {
                lastGroupSeq.put(body.group(), body.groupSeq());
            }
        }
        return true;
    }

    public synchronized void deleted(long seq) {
        int i = index(seq);
        if (!deleted.get(i)) {
            deleted.set(i);
            deletedCount++;
        }
    }

    public synchronized long sentCount() {
        return sentCount;
    }

    public synchronized long receivedCount() {
        return receivedCount;
    }

    public synchronized long deletedCount() {
        return deletedCount;
    }

    /**
     * Every acknowledged id has been received and deleted. By id, not by count: a send answered with an
     * error may still have committed (a cluster's leader change), so counts of receipts can reach the
     * count of acknowledged sends while an acknowledged message is still in the queue.
     */
    public synchronized boolean drained() {
        return absentFrom(received) == 0 && absentFrom(deleted) == 0;
    }

    public synchronized CorrectnessReport report() {
        BitSet unacknowledged = (BitSet) received.clone();
        unacknowledged.andNot(sent);
        return new CorrectnessReport(sentCount, receivedCount, deletedCount, absentFrom(received), duplicates,
                orderViolations, unknown, unacknowledged.cardinality(), absentFrom(deleted));
    }

    /** Acknowledged ids not in {@code seen}. */
    private int absentFrom(BitSet seen) {
        BitSet missing = (BitSet) sent.clone();
        missing.andNot(seen);
        return missing.cardinality();
    }

    private static int index(long seq) {
        if (seq < 0 || seq > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("seq out of range: " + seq);
        }
        return (int) seq;
    }
}
