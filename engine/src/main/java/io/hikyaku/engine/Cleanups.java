package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Store cleanup after a purge or a DeleteQueue, in chunks through the tick (ENGINE.md "Bounded
 * work"). The command itself drops the queue's indexes at once, so clients see the result at
 * once; this removes the keys the dropped messages left: MESSAGES and MESSAGE_STATE below the
 * bound, then the DEDUP entries keyed by a seq below it and every older-form entry. Nothing here
 * needs persisting: at start-up the loader ignores keys of unknown queues and keys below a
 * queue's persisted purge bound, and restarts a cleanup for each it meets.
 */
final class Cleanups {

    /** Store keys one tick removes at most. */
    static final int CHUNK = 1000;

    private enum Phase { MESSAGES, STATES, DEDUP_BY_SEQ, DEDUP_OLDER_FORM }

    /** Removes the keys of queue {@code queueId} with seq below {@code below} (Long.MAX_VALUE: all). */
    private static final class Job {
        final long queueId;
        long below;
        Phase phase = Phase.MESSAGES;
        long cursor;

        Job(long queueId, long below) {
            this.queueId = queueId;
            this.below = below;
        }
    }

    private final Store store;
    private final ArrayDeque<Job> jobs = new ArrayDeque<>();

    Cleanups(Store store) {
        this.store = store;
    }

    /** Schedules the removal; a second purge of a queue still being cleaned raises the bound of its job. */
    void add(long queueId, long below) {
        for (Job j : jobs) {
            if (j.queueId == queueId) {
                if (below > j.below) {
                    j.below = below;
                    j.phase = Phase.MESSAGES; // from the start: earlier phases must cover the new range too
                    j.cursor = 0;
                }
                return;
            }
        }
        jobs.add(new Job(queueId, below));
    }

    /** Whether keys of {@code queueId} are being removed here (the digest of one shard counts them). */
    boolean covers(long queueId) {
        for (Job j : jobs) {
            if (j.queueId == queueId) {
                return true;
            }
        }
        return false;
    }

    boolean pending() {
        return !jobs.isEmpty();
    }

    /** Removes up to {@link #CHUNK} keys into {@code b}. */
    void tick(StoreBatch b) {
        int[] left = {CHUNK};
        while (left[0] > 0 && !jobs.isEmpty()) {
            Job j = jobs.peek();
            if (step(j, b, left)) {
                jobs.poll();
            }
        }
    }

    /** One phase's worth (or what {@code left} allows); true when the job is done. */
    private boolean step(Job j, StoreBatch b, int[] left) {
        byte[] queue = Keys.queue(j.queueId);
        boolean[] more = {false};
        switch (j.phase) {
            case MESSAGES, STATES -> {
                Keyspace space = j.phase == Phase.MESSAGES ? Keyspace.MESSAGES : Keyspace.MESSAGE_STATE;
                store.scanFrom(space, queue, Keys.message(j.queueId, j.cursor), 0, (k, v) -> {
                    long seq = Keys.seqOf(k);
                    if (seq >= j.below) {
                        return false;
                    }
                    if (left[0] == 0) {
                        more[0] = true;
                        return false;
                    }
                    if (space == Keyspace.MESSAGES && !StoredMessage.isRewritten(v)) {
                        b.deleteOnceWritten(space, k); // a message is written once (unless re-sealed)
                    } else {
                        b.delete(space, k);
                    }
                    j.cursor = seq + 1;
                    left[0]--;
                    return true;
                });
            }
            case DEDUP_BY_SEQ -> {
                byte[] prefix = ByteBuffer.allocate(9).put(queue).put((byte) 'D').array();
                store.scanFrom(Keyspace.DEDUP, prefix, Keys.dedupBySeq(j.queueId, j.cursor), 0, (k, v) -> {
                    long seq = Keys.dedupSeqOf(k);
                    if (seq >= j.below) {
                        return false;
                    }
                    if (left[0] == 0) {
                        more[0] = true;
                        return false;
                    }
                    b.deleteOnceWritten(Keyspace.DEDUP, k);
                    j.cursor = seq + 1;
                    left[0]--;
                    return true;
                });
            }
            case DEDUP_OLDER_FORM -> {
                // Never written by new sends, so all of them predate the bound; few and rare.
                byte[] prefix = ByteBuffer.allocate(9).put(queue).put((byte) 'd').array();
                store.scan(Keyspace.DEDUP, prefix, (k, v) -> {
                    if (left[0] == 0) {
                        more[0] = true;
                        return false;
                    }
                    b.delete(Keyspace.DEDUP, k);
                    left[0]--;
                    return true;
                });
            }
        }
        if (more[0]) {
            return false;
        }
        if (j.phase == Phase.DEDUP_OLDER_FORM) {
            return true;
        }
        j.phase = Phase.values()[j.phase.ordinal() + 1];
        j.cursor = 0;
        return false;
    }
}
