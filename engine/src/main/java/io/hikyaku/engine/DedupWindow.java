package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A FIFO queue's deduplication entries by key, and in the order they expire.
 *
 * <p>A busy FIFO queue holds five minutes of these (at 10,000 sends a second, three million), and
 * every one outlives the young generation. Held as objects in a HashMap they cost ~206 bytes each,
 * and the garbage collector paid for them on every send: each insert dirtied a random card of the
 * old generation's hash table, so young collections rescanned it, and full collections marked
 * four objects per entry. So the entries are kept as columns instead: primitive arrays in pages of
 * {@value #PAGE_SIZE}, appended in send order, and an open-addressing index of positions in a
 * {@code long[]}. Neither holds references the collector has to follow. An entry is ~54 bytes plus
 * its key's length.
 *
 * <p>Every entry lives for the same window from its send, so send order is expiry order and the
 * oldest page is dropped once its entries are gone. A replaced or removed entry is marked dead and
 * skipped when it reaches the head. Commands' timestamps may step back a millisecond between
 * threads; an entry then expires only after the one before it, at most that late, which a 5-minute
 * window does not notice. Entries go in and come out as {@link DedupEntry} values.
 */
final class DedupWindow {

    static final int PAGE_BITS = 10;
    static final int PAGE_SIZE = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_SIZE - 1;
    private static final int MIN_TABLE = 16;
    private static final byte DEAD = 1;
    /** Message id, sequence number or key not in the compact form: its texts are in {@link #extras}. */
    private static final byte EXTRA = 2;
    /** The entry is stored under its text key (the older form): {@link DedupEntry#textKeyed()}. */
    private static final byte TEXT_KEYED = 4;

    /**
     * One page of entries: position {@code p} is at index {@code p & PAGE_MASK} of page {@code p >> PAGE_BITS}.
     * A page starts small and doubles up to {@value #PAGE_SIZE} entries, so a queue with a few entries
     * (there may be thousands of such queues) holds about a kilobyte, not a full page.
     */
    private static final class Page {
        private static final int FIRST_CAPACITY = 8;
        private static final int KEY_BYTES_PER_ENTRY = 72;

        long[] idHigh;
        long[] idLow;
        /** The number behind our 20-digit sequence number, or -1 (no number, or text in extras). */
        long[] seq;
        long[] expiresAt;
        int[] hash;
        /** Entry i's key is keys[keyEnd[i-1] (0 for i = 0) .. keyEnd[i]), one byte per char (Latin-1). */
        int[] keyEnd;
        byte[] flags;
        byte[] keys;

        Page(int capacity) {
            idHigh = new long[capacity];
            idLow = new long[capacity];
            seq = new long[capacity];
            expiresAt = new long[capacity];
            hash = new int[capacity];
            keyEnd = new int[capacity];
            flags = new byte[capacity];
            keys = new byte[capacity * KEY_BYTES_PER_ENTRY];
        }

        /** Makes room for entry {@code i}. */
        void room(int i) {
            if (i < flags.length) {
                return;
            }
            int capacity = Math.min(PAGE_SIZE, flags.length * 2);
            idHigh = Arrays.copyOf(idHigh, capacity);
            idLow = Arrays.copyOf(idLow, capacity);
            seq = Arrays.copyOf(seq, capacity);
            expiresAt = Arrays.copyOf(expiresAt, capacity);
            hash = Arrays.copyOf(hash, capacity);
            keyEnd = Arrays.copyOf(keyEnd, capacity);
            flags = Arrays.copyOf(flags, capacity);
        }
    }

    /** Texts of an entry not in the compact form: message id, sequence number, key (each null when compact). */
    private record Extra(String idText, String seqText, String key) {}

    private Page[] pages = new Page[4];
    private int pagesHead;
    private int pageCount;
    /** Page number of pages[pagesHead]. */
    private long firstPageNo;
    /** No live entry sits before this position. */
    private long head;
    /** Where the next entry goes. */
    private long next;
    /** Open addressing with linear probing: position + 1, or 0 for an empty slot. */
    private long[] table = new long[MIN_TABLE];
    private int size;
    private final Map<Long, Extra> extras = new HashMap<>();
    /** Entries read at start-up, appended in expiry order by {@link #endLoad}. */
    private List<DedupEntry> loading;

    /** The live entry under {@code key}, or null. */
    DedupEntry get(String key) {
        int slot = find(key, key.hashCode());
        return slot < 0 ? null : entryAt(table[slot] - 1);
    }

    /** Adds {@code e}; returns the entry it replaces under the same key, or null. */
    DedupEntry put(DedupEntry e) {
        String key = e.key();
        int hash = key.hashCode();
        int slot = find(key, hash);
        DedupEntry old = null;
        long pos = append(e, hash);
        if (slot >= 0) {
            long oldPos = table[slot] - 1;
            old = entryAt(oldPos);
            kill(oldPos);
            table[slot] = pos + 1;
        } else {
            if ((size + 1) * 5L > table.length * 3L) { // load factor 0.6
                rehash(table.length * 2);
            }
            insert(pos, hash);
            size++;
        }
        return old;
    }

    /** Removes {@code e} if it is still the live entry under its key. */
    void remove(DedupEntry e) {
        int slot = find(e.key(), e.key().hashCode());
        if (slot < 0 || !holds(table[slot] - 1, e)) {
            return;
        }
        kill(table[slot] - 1);
        deleteSlot(slot);
        size--;
        if (size == 0) {
            clear();
        } else if (table.length > MIN_TABLE && size * 8L < table.length) {
            rehash(table.length / 2);
        }
    }

    /** The live entry that expires first, or null. */
    DedupEntry first() {
        long pos = skipDead();
        return pos < 0 ? null : entryAt(pos);
    }

    /** When the first live entry expires (without building it), or Long.MAX_VALUE when empty. */
    long firstExpiresAt() {
        long pos = skipDead();
        return pos < 0 ? Long.MAX_VALUE : page(pos).expiresAt[(int) (pos & PAGE_MASK)];
    }

    /** Every live entry, as a copy (callers remove while they walk it). */
    List<DedupEntry> values() {
        List<DedupEntry> out = new ArrayList<>(size);
        for (long pos = head; pos < next; pos++) {
            if ((page(pos).flags[(int) (pos & PAGE_MASK)] & DEAD) == 0) {
                out.add(entryAt(pos));
            }
        }
        return out;
    }

    int size() {
        return size;
    }

    /** Entry slots the pages hold, live or not (what the window costs beside its keys and index). */
    int allocatedSlots() {
        int slots = 0;
        for (int k = 0; k < pageCount; k++) {
            slots += pages[(pagesHead + k) & (pages.length - 1)].flags.length;
        }
        return slots;
    }

    /** Start-up: entries arrive in key order. */
    void load(DedupEntry e) {
        if (loading == null) {
            loading = new ArrayList<>();
        }
        loading.add(e);
    }

    void endLoad() {
        if (loading != null) {
            List<DedupEntry> es = loading;
            loading = null;
            es.sort(Comparator.comparingLong(DedupEntry::expiresAt));
            es.forEach(this::put);
        }
    }

    // ---- pages ----

    private Page page(long pos) {
        int offset = (int) ((pos >> PAGE_BITS) - firstPageNo);
        return pages[(pagesHead + offset) & (pages.length - 1)];
    }

    private long append(DedupEntry e, int hash) {
        long pos = next++;
        int i = (int) (pos & PAGE_MASK);
        if (i == 0) {
            addPage(pos >> PAGE_BITS);
        }
        Page p = page(pos);
        p.room(i);
        String key = e.key();
        int start = i == 0 ? 0 : p.keyEnd[i - 1];
        boolean latin1 = isLatin1(key);
        int length = latin1 ? key.length() : 0;
        if (start + length > p.keys.length) {
            p.keys = Arrays.copyOf(p.keys, Math.max(start + length, p.keys.length + (p.keys.length >> 1)));
        }
        for (int c = 0; c < length; c++) {
            p.keys[start + c] = (byte) key.charAt(c);
        }
        p.keyEnd[i] = start + length;
        p.hash[i] = hash;
        p.expiresAt[i] = e.expiresAt();
        p.idHigh[i] = e.idHigh();
        p.idLow[i] = e.idLow();
        p.seq[i] = e.seq();
        p.flags[i] = e.textKeyed() ? TEXT_KEYED : 0;
        if (!latin1 || e.idText() != null || e.seqText() != null) {
            p.flags[i] |= EXTRA;
            extras.put(pos, new Extra(e.idText(), e.seqText(), latin1 ? null : key));
        }
        return pos;
    }

    private void addPage(long pageNo) {
        if (pageCount == pages.length) {
            Page[] grown = new Page[pages.length * 2];
            for (int k = 0; k < pageCount; k++) {
                grown[k] = pages[(pagesHead + k) & (pages.length - 1)];
            }
            pages = grown;
            pagesHead = 0;
        }
        if (pageCount == 0) {
            firstPageNo = pageNo;
        }
        // A window's first page starts small; once it has filled one, the next ones start whole.
        pages[(pagesHead + pageCount) & (pages.length - 1)] = new Page(pageCount == 0 ? Page.FIRST_CAPACITY : PAGE_SIZE);
        pageCount++;
    }

    private void kill(long pos) {
        Page p = page(pos);
        int i = (int) (pos & PAGE_MASK);
        if ((p.flags[i] & EXTRA) != 0) {
            extras.remove(pos);
        }
        p.flags[i] |= DEAD;
    }

    /** Moves the head past dead entries, dropping emptied pages; returns the head's position, or -1. */
    private long skipDead() {
        while (head < next && (page(head).flags[(int) (head & PAGE_MASK)] & DEAD) != 0) {
            head++;
        }
        while (pageCount > 0 && (firstPageNo + 1) << PAGE_BITS <= head) {
            dropFirstPage(); // every entry of it is behind the head
        }
        return head < next ? head : -1;
    }

    private void dropFirstPage() {
        pages[pagesHead] = null;
        pagesHead = (pagesHead + 1) & (pages.length - 1);
        pageCount--;
        firstPageNo++;
    }

    /** Empty: let every page go, and start the next entry on a fresh page. */
    private void clear() {
        Arrays.fill(pages, null);
        pagesHead = 0;
        pageCount = 0;
        next = ((next + PAGE_MASK) >> PAGE_BITS) << PAGE_BITS;
        head = next;
        firstPageNo = next >> PAGE_BITS;
        extras.clear();
        if (table.length > MIN_TABLE) {
            table = new long[MIN_TABLE];
        }
    }

    private DedupEntry entryAt(long pos) {
        Page p = page(pos);
        int i = (int) (pos & PAGE_MASK);
        Extra extra = (p.flags[i] & EXTRA) != 0 ? extras.get(pos) : null;
        String key = extra != null && extra.key() != null ? extra.key() : keyAt(p, i);
        return new DedupEntry(key, p.idHigh[i], p.idLow[i], extra == null ? null : extra.idText(),
                p.seq[i], extra == null ? null : extra.seqText(), p.expiresAt[i], (p.flags[i] & TEXT_KEYED) != 0);
    }

    /** Whether the entry at {@code pos} (whose key is {@code e}'s) has {@code e}'s fields, compared in place. */
    private boolean holds(long pos, DedupEntry e) {
        Page p = page(pos);
        int i = (int) (pos & PAGE_MASK);
        if (p.expiresAt[i] != e.expiresAt() || p.idHigh[i] != e.idHigh() || p.idLow[i] != e.idLow() || p.seq[i] != e.seq()
                || ((p.flags[i] & TEXT_KEYED) != 0) != e.textKeyed()) {
            return false;
        }
        Extra extra = (p.flags[i] & EXTRA) != 0 ? extras.get(pos) : null;
        return Objects.equals(extra == null ? null : extra.idText(), e.idText())
                && Objects.equals(extra == null ? null : extra.seqText(), e.seqText());
    }

    private static String keyAt(Page p, int i) {
        int start = i == 0 ? 0 : p.keyEnd[i - 1];
        return new String(p.keys, start, p.keyEnd[i] - start, StandardCharsets.ISO_8859_1);
    }

    private static boolean isLatin1(String s) {
        for (int c = 0; c < s.length(); c++) {
            if (s.charAt(c) > 0xff) {
                return false;
            }
        }
        return true;
    }

    // ---- index ----

    private static int home(int hash, int mask) {
        int h = hash * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** The slot whose live entry has {@code key}, or -1. */
    private int find(String key, int hash) {
        int mask = table.length - 1;
        for (int s = home(hash, mask); table[s] != 0; s = (s + 1) & mask) {
            long pos = table[s] - 1;
            Page p = page(pos);
            int i = (int) (pos & PAGE_MASK);
            if (p.hash[i] == hash && keyEquals(p, i, pos, key)) {
                return s;
            }
        }
        return -1;
    }

    private boolean keyEquals(Page p, int i, long pos, String key) {
        if ((p.flags[i] & EXTRA) != 0) {
            Extra extra = extras.get(pos);
            if (extra.key() != null) {
                return extra.key().equals(key);
            }
        }
        int start = i == 0 ? 0 : p.keyEnd[i - 1];
        if (p.keyEnd[i] - start != key.length()) {
            return false;
        }
        for (int c = 0; c < key.length(); c++) {
            if (key.charAt(c) != (p.keys[start + c] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    private void insert(long pos, int hash) {
        int mask = table.length - 1;
        int s = home(hash, mask);
        while (table[s] != 0) {
            s = (s + 1) & mask;
        }
        table[s] = pos + 1;
    }

    /** Empties {@code slot}, shifting later entries of its probe run back so every lookup still finds them. */
    private void deleteSlot(int slot) {
        int mask = table.length - 1;
        int gap = slot;
        for (int s = (gap + 1) & mask; table[s] != 0; s = (s + 1) & mask) {
            long pos = table[s] - 1;
            int want = home(page(pos).hash[(int) (pos & PAGE_MASK)], mask);
            // The entry at s may move to the gap unless its home lies cyclically in (gap, s].
            boolean stays = gap <= s ? gap < want && want <= s : gap < want || want <= s;
            if (!stays) {
                table[gap] = table[s];
                gap = s;
            }
        }
        table[gap] = 0;
    }

    private void rehash(int capacity) {
        long[] old = table;
        table = new long[Math.max(MIN_TABLE, capacity)];
        for (long slot : old) {
            if (slot != 0) {
                long pos = slot - 1;
                insert(pos, page(pos).hash[(int) (pos & PAGE_MASK)]);
            }
        }
    }
}
