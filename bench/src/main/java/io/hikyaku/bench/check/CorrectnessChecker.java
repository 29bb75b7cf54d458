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

    /** Everything acknowledged as sent has been received and deleted. */
    public synchronized boolean drained() {
        return receivedCount >= sentCount && deletedCount >= sentCount;
    }

    public synchronized CorrectnessReport report() {
        BitSet missing = (BitSet) sent.clone();
        missing.andNot(received);
        return new CorrectnessReport(sentCount, receivedCount, deletedCount, missing.cardinality(), duplicates,
                orderViolations, unknown);
    }

    private static int index(long seq) {
        if (seq < 0 || seq > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("seq out of range: " + seq);
        }
        return (int) seq;
    }
}
