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
 * engine had kept running.
 */
final class Loader {

    private final QueueEngine engine;
    private final Store store;

    Loader(QueueEngine engine, Store store) {
        this.engine = engine;
        this.store = store;
    }

    void load() {
        Map<Long, Long> reserved = new HashMap<>();
        store.scan(Keyspace.META, new byte[0], (k, v) -> {
            if (java.util.Arrays.equals(k, Keys.QUEUE_ID_COUNTER)) {
                engine.loadedQueueIdCounter(Dec.of(v, 1, "counter").i64());
            } else if (k.length == 9 && k[0] == 's') {
                reserved.put(ByteBuffer.wrap(k, 1, 8).getLong(), Dec.of(v, 1, "seq reservation").i64());
            }
            return true;
        });
        Map<Long, QueueState> byId = new HashMap<>();
        store.scan(Keyspace.QUEUES, new byte[0], (k, v) -> {
            QueueState q = QueueState.decodeRecord(Keys.queueIdOf(k), v);
            byId.put(q.id, q);
            return true;
        });
        Map<Long, Map<Long, Message>> loading = new HashMap<>();
        store.scan(Keyspace.MESSAGES, new byte[0], (k, v) -> {
            long qid = Keys.queueIdOf(k);
            if (byId.containsKey(qid)) {
                StoredMessage.Head h = StoredMessage.decodeHead(v);
                Message m = new Message(Keys.seqOf(k), h.groupId(), h.sentAt());
                m.state = Message.State.DELAYED;
                m.visibleAt = h.availableAt();
                loading.computeIfAbsent(qid, x -> new HashMap<>()).put(m.seq, m);
            }
            return true;
        });
        store.scan(Keyspace.MESSAGE_STATE, new byte[0], (k, v) -> {
            Map<Long, Message> ms = loading.get(Keys.queueIdOf(k));
            Message m = ms == null ? null : ms.get(Keys.seqOf(k));
            if (m != null) {
                m.decodeState(v);
                m.state = m.receiveCount > 0 ? Message.State.INFLIGHT : Message.State.DELAYED;
            }
            return true;
        });
        for (QueueState q : byId.values()) {
            long maxSeq = 0;
            Map<Long, Message> ms = loading.getOrDefault(q.id, Map.of());
            List<Long> seqs = new ArrayList<>(ms.keySet());
            seqs.sort(null);
            if (!q.fifo) {
                q.fair().beginLoad();
            }
            for (long seq : seqs) {
                q.add(ms.get(seq));
                maxSeq = seq;
            }
            if (!q.fifo) {
                q.fair().endLoad(); // fair-queue noisiness is derived from the rebuilt state (ENGINE.md)
            }
            q.nextSeq = Math.max(reserved.getOrDefault(q.id, 1L), maxSeq + 1);
            q.reservedSeq = q.nextSeq;
        }
        store.scan(Keyspace.DEDUP, new byte[0], (k, v) -> {
            QueueState q = byId.get(Keys.queueIdOf(k));
            if (q != null) {
                String text = Keys.dedupText(k);
                if (Keys.dedupTag(k) == 'd') {
                    DedupEntry e = DedupEntry.decode(text, v);
                    q.dedup.put(text, e);
                    q.dedupByExpiry.add(e);
                } else {
                    AttemptEntry e = AttemptEntry.decode(text, v);
                    q.attempts.put(text, e);
                    q.attemptsByExpiry.add(e);
                }
            }
            return true;
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
    }
}
