package io.hikyaku.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Messages by sequence number in an open-addressing hash table of primitive {@code long} keys
 * (linear probing, backward-shift deletion): {@link MessagesBySeq} keeps here the old messages that
 * fell behind its window. Unlike a {@code HashMap<Long, Message>} (about 50 bytes per entry with the
 * boxed key) an entry costs 12 bytes at the highest load (3/4). Sequence numbers are positive, so 0
 * marks an empty slot.
 */
final class SeqHashTable {

    private static final int MIN_CAPACITY = 16;

    private long[] keys = new long[MIN_CAPACITY];
    private Message[] values = new Message[MIN_CAPACITY];
    private int size;

    int size() {
        return size;
    }

    Message get(long seq) {
        int mask = keys.length - 1;
        for (int i = slot(seq, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == seq) {
                return values[i];
            }
            if (k == 0) {
                return null;
            }
        }
    }

    void put(long seq, Message m) {
        if (seq <= 0) {
            throw new IllegalArgumentException("sequence numbers are positive: " + seq);
        }
        if ((size + 1) * 4L > keys.length * 3L) {
            resize(keys.length * 2);
        }
        int mask = keys.length - 1;
        int i = slot(seq, mask);
        while (keys[i] != 0 && keys[i] != seq) {
            i = (i + 1) & mask;
        }
        if (keys[i] == 0) {
            size++;
        }
        keys[i] = seq;
        values[i] = m;
    }

    void remove(long seq) {
        int mask = keys.length - 1;
        int i = slot(seq, mask);
        while (keys[i] != seq) {
            if (keys[i] == 0) {
                return;
            }
            i = (i + 1) & mask;
        }
        // Backward shift: pull later entries of the probe run into the hole so lookups stay correct.
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
            int home = slot(keys[j], mask);
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = 0;
        values[hole] = null;
        size--;
        if (keys.length > MIN_CAPACITY && size * 8L < keys.length) {
            resize(keys.length / 2);
        }
    }

    /** A snapshot of the messages, in no particular order (purge and delete walk it). */
    List<Message> values() {
        List<Message> out = new ArrayList<>(size);
        for (Message m : values) {
            if (m != null) {
                out.add(m);
            }
        }
        return out;
    }

    private void resize(int capacity) {
        long[] oldKeys = keys;
        Message[] oldValues = values;
        keys = new long[capacity];
        values = new Message[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0) {
                int i = slot(oldKeys[j], mask);
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }

    /** Sequence numbers are dense, so a multiplicative mix spreads runs of them over the table. */
    private static int slot(long seq, int mask) {
        long h = seq * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
