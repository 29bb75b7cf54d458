package io.hikyaku.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Amazon SQS promises, as plain data: the queues, the acknowledged messages still in them, and
 * the FIFO deduplication windows. Time is explicit (every question takes {@code now}); nothing here
 * knows the engine. The simulation changes the model only for commands the engine acknowledged.
 */
final class Model {

    static final long DEDUP_WINDOW_MS = 5 * 60_000L;
    static final long PURGE_COOLDOWN_MS = 60_000L;

    /** One acknowledged message. */
    static final class Msg {
        final String id;
        final String body;
        final String group;
        long sentAt;             // SentTimestamp (retention counts from it; a FIFO DLQ move renews it)
        long availableAt;        // end of the delay
        long invisibleUntil = Long.MIN_VALUE; // in flight while > now
        int receiveCount;
        String handle;           // the latest receive's receipt handle
        long lastReceiveAt;
        String sequenceNumber;   // FIFO: the order within its queue
        String sourceArn;        // set once moved to a dead-letter queue

        Msg(String id, String body, String group, long sentAt, long availableAt, String sequenceNumber) {
            this.id = id;
            this.body = body;
            this.group = group;
            this.sentAt = sentAt;
            this.availableAt = availableAt;
            this.sequenceNumber = sequenceNumber;
        }

        boolean visible(long now) {
            return availableAt <= now && invisibleUntil <= now;
        }

        boolean inFlight(long now) {
            return invisibleUntil > now;
        }

        boolean delayed(long now) {
            return !inFlight(now) && availableAt > now;
        }
    }

    record Dedup(String messageId, String sequenceNumber, long expiresAt) {}

    /** One queue and what it holds. */
    static final class Queue {
        final String name;
        final String arn;
        final boolean fifo;
        final boolean contentDedup;
        final int delaySeconds;
        int visibilitySeconds;
        int retentionSeconds;
        Queue deadLetter;        // null: no redrive
        int maxReceiveCount;
        /** Live messages in arrival order (send or move). */
        final LinkedHashMap<String, Msg> live = new LinkedHashMap<>();
        final Map<String, Dedup> dedup = new HashMap<>();
        long lastPurgeAt = Long.MIN_VALUE;
        String lastSequenceNumber = "";

        Queue(String name, String arn, boolean fifo, boolean contentDedup, int delaySeconds, int visibilitySeconds,
              int retentionSeconds) {
            this.name = name;
            this.arn = arn;
            this.fifo = fifo;
            this.contentDedup = contentDedup;
            this.delaySeconds = delaySeconds;
            this.visibilitySeconds = visibilitySeconds;
            this.retentionSeconds = retentionSeconds;
        }

        /** Drops what retention and the dedup window have expired by {@code now}. */
        void expire(long now) {
            live.values().removeIf(m -> m.sentAt + retentionSeconds * 1000L <= now);
            dedup.values().removeIf(d -> d.expiresAt() <= now);
        }

        /** The live dedup entry under {@code key} at {@code now}, or null. */
        Dedup dedupAt(String key, long now) {
            Dedup d = dedup.get(key);
            return d == null || d.expiresAt() <= now ? null : d;
        }

        long visible(long now) {
            return live.values().stream().filter(m -> m.visible(now)).count();
        }

        long inFlight(long now) {
            return live.values().stream().filter(m -> m.inFlight(now)).count();
        }

        long delayed(long now) {
            return live.values().stream().filter(m -> m.delayed(now)).count();
        }

        /** FIFO: the live messages of {@code group} in queue order. */
        List<Msg> group(String group) {
            List<Msg> out = new ArrayList<>();
            for (Msg m : live.values()) {
                if (group.equals(m.group)) {
                    out.add(m);
                }
            }
            out.sort((a, b) -> a.sequenceNumber.compareTo(b.sequenceNumber));
            return out;
        }
    }

    final Map<String, Queue> queues = new LinkedHashMap<>();

    void expireAll(long now) {
        queues.values().forEach(q -> q.expire(now));
    }
}
