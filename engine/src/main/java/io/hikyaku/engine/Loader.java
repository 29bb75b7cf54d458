package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the engine's in-memory indexes by scanning the store at start-up. Messages never
 * received come back DELAYED until their available time, received ones INFLIGHT until their
 * visibleAt; the first advance (tick or any command) makes due ones visible, exactly as if the
 * engine had kept running. When the load carries a timestamp, messages already due at it come back
 * VISIBLE at once (the same state that first advance would produce).
 */
final class Loader {

    private final QueueEngine engine;
    private final Store store;

    private final long loadedAt;

    /**
     * {@code loadedAt} stamps the load like any command: messages due by then come back VISIBLE
     * directly (Long.MIN_VALUE: all wait for the first advance, as before).
     */
    Loader(QueueEngine engine, Store store, long loadedAt) {
        this.engine = engine;
        this.store = store;
        this.loadedAt = loadedAt;
    }

    void load() {
        Map<Long, Long> reserved = new HashMap<>();
        Map<Long, Long> purged = new HashMap<>();
        store.scan(Keyspace.META, new byte[0], (k, v) -> {
            if (java.util.Arrays.equals(k, Keys.QUEUE_ID_COUNTER)) {
                engine.loadedQueueIdCounter(Dec.of(v, 1, "counter").i64());
            } else if (k.length == 9 && k[0] == 's') {
                reserved.put(ByteBuffer.wrap(k, 1, 8).getLong(), Dec.of(v, 1, "seq reservation").i64());
            } else if (k.length == 9 && k[0] == 'p') {
                purged.put(ByteBuffer.wrap(k, 1, 8).getLong(), Dec.of(v, 1, "purge bound").i64());
            }
            return true;
        });
        Map<Long, QueueState> byId = new HashMap<>();
        store.scan(Keyspace.QUEUES, new byte[0], (k, v) -> {
            QueueState q = QueueState.decodeRecord(Keys.queueIdOf(k), v);
            q.purgedBelow = purged.getOrDefault(q.id, 0L);
            q.budget = engine.budget;
            byId.put(q.id, q);
            return true;
        });
        // Keys a purge or DeleteQueue left behind (the store cleanup had not finished): skipped
        // here, removed again in chunks by the tick.
        java.util.TreeSet<Long> leftovers = new java.util.TreeSet<>();
        // MESSAGES and MESSAGE_STATE keys are (queue id, seq) big-endian, so both scans arrive sorted:
        // messages append to their queue's list in seq order and states merge-join against it, with
        // no map per message. The index budget bounds what is kept: each queue's messages are
        // indexed in seq order while the budget (or the queue's reserve) has room; the rest of the
        // queue is its spilled tail, only counted here and paged in as the head drains.
        Map<Long, List<Message>> loading = new HashMap<>();
        long[] current = {-1};
        long[] indexed = {0};
        QueueState[] queue = new QueueState[1];
        @SuppressWarnings("unchecked") List<Message>[] into = new List[1];
        IndexBudget budget = engine.budget;
        Map<Long, Long> lastTailSeq = new HashMap<>();
        store.scanHeads(Keyspace.MESSAGES, new byte[0], StoredMessage.HEAD_BYTES, (k, head) -> {
            long qid = Keys.queueIdOf(k);
            if (qid != current[0]) {
                current[0] = qid;
                queue[0] = byId.get(qid);
                into[0] = queue[0] != null ? loading.computeIfAbsent(qid, x -> new ArrayList<>()) : null;
            }
            QueueState q = queue[0];
            long seq = Keys.seqOf(k);
            if (q == null || seq < q.purgedBelow) {
                leftovers.add(qid);
                return true;
            }
            if (q.tail > 0 || (indexed[0] >= budget.limit && into[0].size() >= IndexBudget.QUEUE_RESERVE)) {
                q.spill(seq); // counted, not decoded
                lastTailSeq.put(qid, seq);
                return true;
            }
            indexed[0]++;
            if (into[0] != null) {
                // Bodies are not read: only each value's head (a long group id needs the whole value).
                byte[] v = StoredMessage.headFits(head) ? head : store.get(Keyspace.MESSAGES, k);
                StoredMessage.Head h = StoredMessage.decodeHead(v);
                Message m = new Message(Keys.seqOf(k), h.groupId(), h.sentAt());
                m.state = Message.State.DELAYED;
                m.visibleAt = h.availableAt();
                into[0].add(m);
            }
            return true;
        });
        current[0] = -1;
        int[] cursor = {0};
        store.scan(Keyspace.MESSAGE_STATE, new byte[0], (k, v) -> {
            long qid = Keys.queueIdOf(k);
            if (qid != current[0]) {
                current[0] = qid;
                into[0] = loading.get(qid);
                cursor[0] = 0;
            }
            List<Message> ms = into[0];
            QueueState q = byId.get(qid);
            if (q == null || Keys.seqOf(k) < q.purgedBelow) {
                leftovers.add(qid);
            } else if (ms != null) {
                long seq = Keys.seqOf(k);
                while (cursor[0] < ms.size() && ms.get(cursor[0]).seq < seq) {
                    cursor[0]++;
                }
                if (cursor[0] < ms.size() && ms.get(cursor[0]).seq == seq) {
                    Message m = ms.get(cursor[0]);
                    m.decodeState(v);
                    m.state = m.receiveCount > 0 ? Message.State.INFLIGHT : Message.State.DELAYED;
                }
            }
            return true;
        });
        for (QueueState q : byId.values()) {
            List<Message> ms = loading.getOrDefault(q.id, List.of());
            q.beginLoad();
            for (Message m : ms) {
                if (m.visibleAt <= loadedAt) { // what the first tick at loadedAt would do, without the churn
                    m.state = Message.State.VISIBLE; // visibleAt stays: visible since then (FifoDelivery)
                }
                q.add(m);
            }
            q.endLoad();
            long maxSeq = ms.isEmpty() ? 0 : ms.get(ms.size() - 1).seq;
            maxSeq = Math.max(maxSeq, lastTailSeq.getOrDefault(q.id, 0L));
            q.nextSeq = Math.max(reserved.getOrDefault(q.id, 1L), maxSeq + 1);
            q.reservedSeq = q.nextSeq;
            loading.remove(q.id); // let the list go as soon as its queue holds the messages
        }
        store.scan(Keyspace.DEDUP, new byte[0], (k, v) -> {
            QueueState q = byId.get(Keys.queueIdOf(k));
            if (q == null) {
                leftovers.add(Keys.queueIdOf(k));
            } else {
                char tag = Keys.dedupTag(k);
                if (tag == 'D') {
                    if (Keys.dedupSeqOf(k) < q.purgedBelow) {
                        leftovers.add(q.id);
                        return true;
                    }
                    q.dedup.load(DedupEntry.decodeCompact(Keys.dedupSeqOf(k), v));
                    return true;
                }
                String text = Keys.dedupText(k);
                if (tag == 'd') {
                    DedupEntry e = DedupEntry.decode(text, v);
                    if (q.purgedBelow > 0) {
                        leftovers.add(q.id); // the older form is never written now: all of it predates a purge
                        return true;
                    }
                    q.dedup.load(e);
                } else {
                    AttemptEntry e = AttemptEntry.decode(text, v);
                    q.attempts.put(text, e);
                    q.attemptsByExpiry.add(e);
                }
            }
            return true;
        });
        byId.values().forEach(q -> {
            q.dedup.endLoad();
            budget.dedup += q.dedup.size();
        });
        store.scan(Keyspace.HOUSEKEEPING, new byte[0], (k, v) -> {
            if (k[0] == 'n') {
                String rest = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
                int zero = rest.indexOf('\0');
                engine.loadedDeletedName(rest.substring(0, zero), rest.substring(zero + 1), Dec.of(v, 1, "deleted name").i64());
            } else if (k[0] == 't') {
                String id = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
                engine.tasks.loaded(MoveTask.decode(id, v));
            }
            return true;
        });
        byId.values().forEach(engine.queues::add);
        byId.values().forEach(engine.tails::register);
        for (long qid : leftovers) {
            QueueState q = byId.get(qid);
            engine.cleanups.add(qid, q == null ? Long.MAX_VALUE : q.purgedBelow);
        }
    }
}
