package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;

/**
 * Which part of the accounts an engine serves, when several engines run side by side over one store
 * (the server's {@code --engine-shards}): shard {@code index} of {@code count} owns every account whose
 * stable hash falls on it, with all of that account's queues, their messages, dead-letter queues,
 * move tasks and recently deleted names. Nothing an SQS command does crosses an account (a
 * dead-letter queue and a move task's destination are in the source's account), so each shard is a
 * whole state machine of its own: its own commands, sequence of time and lock, and (later) its own
 * replicated log.
 *
 * <p>Queue ids stay unique across shards without any coordination: at load, a shard takes the
 * highest id the store has seen (every shard's counter and every queue record), and then allocates
 * only ids above it that are {@code index} modulo {@code count}. So the count may change between
 * restarts: old ids are all below every shard's floor. With one shard, ids are 1, 2, 3... as ever.
 *
 * @param index this shard, 0 to count - 1
 * @param count how many shards share the store
 */
public record EngineShard(int index, int count) {

    /** The whole state in one engine (the default, and what the journal and replay work with). */
    public static final EngineShard ONLY = new EngineShard(0, 1);

    public EngineShard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + " of " + count);
        }
    }

    /**
     * The shard of {@code count} that owns {@code accountId}, stable across releases: FNV-1a over its
     * UTF-8 bytes, then a final avalanche (FNV's low bits alone follow the parity of the odd digits,
     * which would put most account ids on one of two shards).
     */
    public static int of(String accountId, int count) {
        if (count == 1) {
            return 0;
        }
        int h = 0x811c9dc5;
        for (byte b : accountId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, count);
    }

    public boolean owns(String accountId) {
        return of(accountId, count) == index;
    }

    /**
     * The smallest twelve-digit account id (from 100000000000) this shard owns: for tests, simulations
     * and benchmarks that need an account on each shard. Found in a few steps: the hash spreads.
     */
    public String firstAccount() {
        for (long n = 100_000_000_000L; ; n++) {
            String id = Long.toString(n);
            if (owns(id)) {
                return id;
            }
        }
    }

    /** The next queue id after {@code last}: the next one of this shard's residue. */
    long nextQueueId(long last) {
        if (count == 1) {
            return last + 1;
        }
        long next = last + 1;
        long off = Math.floorMod(index - next, (long) count);
        return next + off;
    }

    /** The META key holding the last id this shard allocated ({@code queue-ids} alone for one shard). */
    byte[] counterKey() {
        return count == 1 ? Keys.QUEUE_ID_COUNTER
                : ("queue-ids/" + index).getBytes(StandardCharsets.UTF_8);
    }

    /** The META key of this shard's last applied time ({@code applied-at} alone for one shard). */
    byte[] appliedAtKey() {
        return count == 1 ? Keys.APPLIED_AT : ("applied-at/" + index).getBytes(StandardCharsets.UTF_8);
    }

    /** Whether a META key is a queue id counter (one shard's, or the single engine's). */
    static boolean isCounterKey(byte[] key) {
        if (java.util.Arrays.equals(key, Keys.QUEUE_ID_COUNTER)) {
            return true;
        }
        byte[] p = "queue-ids/".getBytes(StandardCharsets.UTF_8);
        if (key.length <= p.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (key[i] != p[i]) {
                return false;
            }
        }
        return true;
    }
}
