package io.hikyaku.engine;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * An ordered set of a queue's messages for the indexes whose entries nearly always arrive in order:
 * retention (by SentTimestamp), the in-flight/delayed set (by the time they become visible) and a
 * standard queue's visible messages (by sequence number). Sends append to all of them, and the
 * red-black trees these used to be cost two tree entries, a boxed key and a rebalancing per message
 * (the largest single cost of {@code send} in a profile, and ~100 B of heap per stored message).
 *
 * <p>In-order entries go to a ring of parallel arrays (a message reference and its order key): O(1),
 * no allocation. An entry that sorts before the ring's last one (a message whose visibility expired
 * back into the visible set, a dead-lettered message keeping its original SentTimestamp, a clock that
 * stepped back) goes to a small tree instead. Removal is lazy: each message records where its entry
 * lives ({@link #HOME_RING}, {@link #HOME_TREE} or nowhere), so a ring entry is live only while its
 * message says "ring" and still has the key it was appended with. Dead entries are dropped when they
 * reach the front, and the ring is compacted when dead entries outnumber live ones, so memory stays
 * within twice the live set and every operation is amortised O(1) (O(log n) in the tree).
 *
 * <p>As with a {@code TreeSet}, a message must be removed before its order key changes.
 */
final class AppendOrderedSet {

    enum Order { BY_SEQ, BY_SENT_AT, BY_VISIBLE_AT }

    private static final Comparator<Message> BY_SEQ = Comparator.comparingLong(m -> m.seq);

    static final byte HOME_NONE = 0;
    static final byte HOME_RING = 1;
    static final byte HOME_TREE = 2;

    private static final int MIN_CAPACITY = 16;
    private static final Message[] NO_MESSAGES = new Message[0];
    private static final long[] NO_KEYS = new long[0];
    /** Dead ring entries tolerated beyond the live count before a compaction. */
    private static final int COMPACT_SLACK = 1024;

    private final Order order;
    /** Out-of-order entries; created on the first one (a queue holds three of these sets, most never need it). */
    private TreeSet<Message> tree;
    /** Allocated on the first append, so an empty queue's sets cost a few dozen bytes. */
    private Message[] ring = NO_MESSAGES;
    private long[] keys = NO_KEYS;
    /** Physical ring: {@code count} slots from {@code head}, live and dead. */
    private int head;
    private int count;
    private int dead;
    /** Key and seq of the ring's physically last entry (dead or not): appends must sort after it. */
    private long lastKey;
    private long lastSeq;

    AppendOrderedSet(Order order) {
        this.order = order;
    }

    int size() {
        return count - dead + (tree == null ? 0 : tree.size());
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Adds {@code m}; like {@code TreeSet.add}, a message already in the set is left as it is (returns false). */
    boolean add(Message m) {
        if (home(m) != HOME_NONE) {
            return false;
        }
        long k = key(m);
        if (count == 0 || k > lastKey || (k == lastKey && m.seq > lastSeq)) {
            if (count == ring.length) {
                resize(Math.max(MIN_CAPACITY, ring.length * 2));
            }
            int at = (head + count) & (ring.length - 1);
            ring[at] = m;
            keys[at] = k;
            count++;
            lastKey = k;
            lastSeq = m.seq;
            setHome(m, HOME_RING);
        } else {
            if (tree == null) {
                tree = new TreeSet<>(comparator(order));
            }
            tree.add(m);
            setHome(m, HOME_TREE);
        }
        return true;
    }

    /** Removes {@code m} if present (with the key it was added under); returns whether it was. */
    boolean remove(Message m) {
        byte h = home(m);
        if (h == HOME_NONE) {
            return false;
        }
        setHome(m, HOME_NONE);
        if (h == HOME_TREE) {
            tree.remove(m);
            return true;
        }
        dead++;
        dropDeadFront();
        if (dead > size() + COMPACT_SLACK) {
            compact();
        }
        return true;
    }

    /** The first message in order, or null when empty. */
    Message first() {
        Message fromRing = count == 0 ? null : ring[head];
        Message fromTree = tree == null || tree.isEmpty() ? null : tree.first();
        if (fromRing == null || fromTree == null) {
            return fromRing != null ? fromRing : fromTree;
        }
        long rk = keys[head];
        long tk = key(fromTree);
        return rk < tk || (rk == tk && fromRing.seq < fromTree.seq) ? fromRing : fromTree;
    }

    /** Ring entries held, live and dead (for tests of the memory bound). */
    int ringEntries() {
        return count;
    }

    private boolean live(int slot) {
        Message m = ring[slot];
        return home(m) == HOME_RING && key(m) == keys[slot];
    }

    /** Keeps the ring's front entry live, so {@link #first} can read it directly. */
    private void dropDeadFront() {
        int mask = ring.length - 1;
        while (count > 0 && !live(head)) {
            ring[head] = null;
            head = (head + 1) & mask;
            count--;
            dead--;
        }
        if (ring.length > MIN_CAPACITY && count * 4 < ring.length) {
            resize(ring.length / 2);
        }
    }

    /** Rewrites the ring with its live entries only, in the same order. */
    private void compact() {
        int mask = ring.length - 1;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int from = (head + i) & mask;
            if (live(from)) {
                int to = (head + kept) & mask;
                ring[to] = ring[from];
                keys[to] = keys[from];
                kept++;
            }
        }
        for (int i = kept; i < count; i++) {
            ring[(head + i) & mask] = null;
        }
        count = kept;
        dead = 0;
        // the physically last entry may have been dead: appends only need to sort after the live ones now
        if (count > 0) {
            int last = (head + count - 1) & mask;
            lastKey = keys[last];
            lastSeq = ring[last].seq;
        }
        if (ring.length > MIN_CAPACITY && count * 4 < ring.length) {
            resize(Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, count)) * 2));
        }
    }

    private void resize(int capacity) {
        Message[] r = new Message[capacity];
        long[] k = new long[capacity];
        int mask = ring.length - 1;
        for (int i = 0; i < count; i++) {
            r[i] = ring[(head + i) & mask];
            k[i] = keys[(head + i) & mask];
        }
        ring = r;
        keys = k;
        head = 0;
    }

    private static Comparator<Message> comparator(Order order) {
        return switch (order) {
            case BY_SEQ -> BY_SEQ;
            case BY_SENT_AT -> Message.BY_SENT_AT;
            case BY_VISIBLE_AT -> Message.BY_VISIBLE_AT;
        };
    }

    private long key(Message m) {
        return switch (order) {
            case BY_SEQ -> m.seq;
            case BY_SENT_AT -> m.sentAt;
            case BY_VISIBLE_AT -> m.visibleAt;
        };
    }

    private byte home(Message m) {
        return switch (order) {
            case BY_SEQ -> m.visibleHome;
            case BY_SENT_AT -> m.retentionHome;
            case BY_VISIBLE_AT -> m.pendingHome;
        };
    }

    private void setHome(Message m, byte h) {
        switch (order) {
            case BY_SEQ -> m.visibleHome = h;
            case BY_SENT_AT -> m.retentionHome = h;
            case BY_VISIBLE_AT -> m.pendingHome = h;
        }
    }
}
