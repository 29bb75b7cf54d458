package io.hikyaku.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * A queue's messages by sequence number. Sequence numbers are handed out in order and most messages
 * leave roughly in order, so the live ones nearly always sit in one dense range: they are kept in a
 * window, an array indexed directly by {@code seq & (length - 1)} that covers the {@code length}
 * sequence numbers from {@code base}. Lookups and inserts touch one slot, and a run of sends writes
 * neighbouring slots (a hash table scatters them over the whole array, which costs a cache miss per
 * insert and makes every young collection scan the whole array's dirty cards: ~13% of the server's CPU
 * in a {@code send} run with millions of messages queued).
 *
 * <p>The window doubles while at least half full and slides forward while sparser; messages it slides
 * past (a poison message that stays for days while millions pass) move to a {@link SeqHashTable}. It
 * shrinks when under an eighth full. So memory stays within a small factor of the live count.
 * Invariant: every key in the overflow table is below {@code base}.
 */
final class MessagesBySeq {

    private static final int MIN_LENGTH = 64;

    private Message[] window = new Message[MIN_LENGTH];
    /** The lowest seq the window covers; it covers [base, base + window.length). 0: not placed yet. */
    private long base;
    /** The highest seq put into the window (a bound for what it holds). */
    private long top;
    private int inWindow;
    private SeqHashTable overflow;

    int size() {
        return inWindow + (overflow == null ? 0 : overflow.size());
    }

    Message get(long seq) {
        if (seq >= base && seq - base < window.length) {
            return window[index(seq)];
        }
        return overflow == null ? null : overflow.get(seq);
    }

    void put(long seq, Message m) {
        if (seq <= 0) {
            throw new IllegalArgumentException("sequence numbers are positive: " + seq);
        }
        if (base == 0) {
            base = seq;
        }
        if (seq < base) {
            overflow().put(seq, m);
            return;
        }
        while (seq - base >= window.length) {
            if (inWindow * 2 >= window.length && seq - base < 2L * window.length) {
                resize(window.length * 2, base);
            } else {
                slideTo(seq - window.length + 1);
            }
        }
        int i = index(seq);
        if (window[i] == null) {
            inWindow++;
        }
        window[i] = m;
        top = Math.max(top, seq);
    }

    void remove(long seq) {
        if (seq >= base && seq - base < window.length) {
            int i = index(seq);
            if (window[i] != null) {
                window[i] = null;
                inWindow--;
                if (window.length > MIN_LENGTH && inWindow * 8 < window.length) {
                    shrink();
                }
            }
        } else if (overflow != null) {
            overflow.remove(seq);
        }
    }

    /** A snapshot of the messages, in no particular order (purge and delete walk it). */
    List<Message> values() {
        List<Message> out = new ArrayList<>(size());
        if (overflow != null) {
            out.addAll(overflow.values());
        }
        for (Message m : window) {
            if (m != null) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Visits messages with {@code seq >= from} in sequence order until {@code visitor} returns false
     * (it has what it wants) or {@code maxSteps} slots were looked at (a bound on the work of one
     * call, however sparse the window). Returns the sequence number to continue from, or -1 when
     * every message was visited. Changes nothing (the read-only peek uses it).
     */
    long visitFrom(long from, int maxSteps, java.util.function.Predicate<Message> visitor) {
        int steps = 0;
        if (overflow != null && from < base) {
            List<Message> older = new ArrayList<>();
            for (Message m : overflow.values()) {
                if (m.seq >= from) {
                    older.add(m);
                }
            }
            older.sort(java.util.Comparator.comparingLong(m -> m.seq));
            for (Message m : older) {
                if (steps++ >= maxSteps) {
                    return m.seq;
                }
                if (!visitor.test(m)) {
                    return m.seq + 1;
                }
            }
        }
        for (long s = Math.max(from, base); s <= top && s - base < window.length; s++) {
            if (steps++ >= maxSteps) {
                return s;
            }
            Message m = window[index(s)];
            if (m != null && !visitor.test(m)) {
                return s + 1;
            }
        }
        return -1;
    }

    /** The window's length in slots (for tests of the memory bound). */
    int windowLength() {
        return window.length;
    }

    private int index(long seq) {
        return (int) seq & (window.length - 1);
    }

    private SeqHashTable overflow() {
        if (overflow == null) {
            overflow = new SeqHashTable();
        }
        return overflow;
    }

    /** Moves the window's start up to {@code newBase}; live messages below it go to the overflow table. */
    private void slideTo(long newBase) {
        long scanEnd = Math.min(newBase, base + window.length);
        for (long s = base; s < scanEnd && inWindow > 0; s++) {
            int i = index(s);
            if (window[i] != null) {
                overflow().put(s, window[i]);
                window[i] = null;
                inWindow--;
            }
        }
        base = newBase;
    }

    /** Under an eighth full: a window four times the live count, ending at {@link #top}. */
    private void shrink() {
        int length = Math.max(MIN_LENGTH, Integer.highestOneBit(Math.max(1, inWindow)) * 4);
        long newBase = Math.max(base, top - length + 1);
        slideTo(newBase);
        resize(length, newBase);
    }

    /** Re-places the window's messages (all within [newBase, newBase + length)) into a new array. */
    private void resize(int length, long newBase) {
        Message[] old = window;
        long oldBase = base;
        window = new Message[length];
        base = newBase;
        int oldMask = old.length - 1;
        for (long s = oldBase; s < oldBase + old.length; s++) {
            Message m = old[(int) s & oldMask];
            if (m != null) {
                window[index(s)] = m;
            }
        }
    }
}
