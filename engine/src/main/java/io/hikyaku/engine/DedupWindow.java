package io.hikyaku.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A FIFO queue's deduplication entries by key, and in the order they expire. Every entry lives
 * for the same window from its send, so send order is expiry order: a queue (deque) is enough,
 * where a sorted tree cost a comparator chain per send and ~40 bytes per entry. A replaced or
 * removed entry stays in the deque until it reaches the head, where it is dropped unseen.
 * Commands' timestamps may step back a millisecond between threads; an entry then expires only
 * after the one before it, at most that late, which a 5-minute window does not notice.
 */
final class DedupWindow {

    private final Map<String, DedupEntry> byKey = new HashMap<>();
    private final ArrayDeque<DedupEntry> byExpiry = new ArrayDeque<>();
    /** Entries read at start-up, sorted into byExpiry by {@link #endLoad}. */
    private List<DedupEntry> loading;

    DedupEntry get(String key) {
        return byKey.get(key);
    }

    /** Adds {@code e}; returns the entry it replaces under the same key, or null. */
    DedupEntry put(DedupEntry e) {
        DedupEntry old = byKey.put(e.key(), e);
        byExpiry.addLast(e);
        return old;
    }

    void remove(DedupEntry e) {
        byKey.remove(e.key(), e);
        if (byKey.isEmpty()) {
            byExpiry.clear();
        }
    }

    /** The live entry that expires first, or null. */
    DedupEntry first() {
        DedupEntry head = byExpiry.peekFirst();
        while (head != null && byKey.get(head.key()) != head) {
            byExpiry.pollFirst(); // replaced or removed earlier
            head = byExpiry.peekFirst();
        }
        return head;
    }

    Collection<DedupEntry> values() {
        return new ArrayList<>(byKey.values());
    }

    int size() {
        return byKey.size();
    }

    /** Start-up: entries arrive in key order. */
    void load(DedupEntry e) {
        if (loading == null) {
            loading = new ArrayList<>();
        }
        byKey.put(e.key(), e);
        loading.add(e);
    }

    void endLoad() {
        if (loading != null) {
            loading.sort(Comparator.comparingLong(DedupEntry::expiresAt));
            byExpiry.addAll(loading);
            loading = null;
        }
    }
}
