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
 * Rebuilds the engine's in-memory indexes from the store at start-up: the small keyspaces whole,
 * of the messages each queue's head window only (ENGINE.md "Memory"). Messages never
 * received come back DELAYED until their available time, received ones INFLIGHT until their
 * visibleAt; the first advance (tick or any command) makes due ones visible, exactly as if the
 * engine had kept running. When the load carries a timestamp, messages already due at it come back
 * VISIBLE at once (the same state that first advance would produce).
 */
final class Loader {

    /**
     * Messages of each queue's head read by the load itself: one page. The window's remainder comes
     * in by the ticks right after (a page per queue per round, at once), while the queue serves.
     */
    static final int LOAD_HEAD = Tails.PAGE_CHUNK;
    /** Tail keys counted by the load itself: a short tail is exact at once; the ticks count the rest. */
    static final int LOAD_COUNT = Tails.PAGE_CHUNK;

    private final QueueEngine engine;
    private final Store store;

    /** The given load time, raised to the stored last applied time once META is read. */
    private long loadedAt;
    /** Queue ids of other shards' queues (several engines over one store): never leftovers. */
    private final java.util.Set<Long> foreign = new java.util.HashSet<>();
    /** Ids up to this were allocated before the load began (see {@link #isLeftover}). */
    private long floor;

    /**
     * {@code loadedAt} stamps the load like any command: messages due by then come back VISIBLE
     * directly (Long.MIN_VALUE: all wait for the first advance, as before). A load is never stamped
     * before the time the store says was applied (META "applied-at"): it starts at the later of the two.
     */
    Loader(QueueEngine engine, Store store, long loadedAt) {
        this.engine = engine;
        this.store = store;
        this.loadedAt = loadedAt;
    }

    void load() {
        foreign.clear();
        Map<Long, Long> reserved = new HashMap<>();
        Map<Long, Long> purged = new HashMap<>();
        store.scan(Keyspace.META, new byte[0], (k, v) -> {
            if (EngineShard.isCounterKey(k)) { // every shard's: ids above all of them are free
                engine.loadedQueueIdCounter(Dec.of(v, 1, "counter").i64());
            } else if (k.length == 9 && k[0] == 's') {
                reserved.put(ByteBuffer.wrap(k, 1, 8).getLong(), Dec.of(v, 1, "seq reservation").i64());
            } else if (k.length == 9 && k[0] == 'p') {
                purged.put(ByteBuffer.wrap(k, 1, 8).getLong(), Dec.of(v, 1, "purge bound").i64());
            } else if (java.util.Arrays.equals(k, engine.shard.appliedAtKey())) { // this shard's own
                engine.loadedAppliedAt(Dec.of(v, 1, "applied-at").i64());
            }
            return true;
        });
        loadedAt = engine.appliedAt(); // max(given, stored): the rest of the load happens then
        // Ids above this were allocated after the scan of META began: a queue being created right
        // now by another shard (while this one reloads), whose record this load may not see.
        floor = engine.queueIdCounter();
        Map<Long, QueueState> byId = new HashMap<>();
        store.scan(Keyspace.QUEUES, new byte[0], (k, v) -> {
            QueueState q = QueueState.decodeRecord(Keys.queueIdOf(k), v);
            engine.loadedQueueIdCounter(q.id);
            if (!engine.shard.owns(q.accountId)) {
                foreign.add(q.id); // another shard's queue: its keys are not this engine's to load or clean
                return true;
            }
            q.purgedBelow = purged.getOrDefault(q.id, 0L);
            q.budget = engine.budget;
            byId.put(q.id, q);
            return true;
        });
        // Keys a purge or DeleteQueue left behind (the store cleanup had not finished): skipped
        // here, removed again in chunks by the tick. Found with one seek per queue id in the store.
        java.util.TreeSet<Long> leftovers = new java.util.TreeSet<>();
        findLeftovers(Keyspace.MESSAGES, byId, leftovers);
        findLeftovers(Keyspace.MESSAGE_STATE, byId, leftovers);
        // Each queue's head only: its first page of messages in seq order (within the index budget
        // or its reserve), with their receive states. The rest is its tail: the ticks that follow
        // at once page it in up to the window and count its keys in chunks (ENGINE.md "Memory"), so
        // start-up neither visits a backlog's keys nor waits for a whole window to be decoded.
        IndexBudget budget = engine.budget;
        List<QueueState> ordered = new ArrayList<>(byId.values());
        ordered.sort(java.util.Comparator.comparingLong(q -> q.id));
        for (QueueState q : ordered) {
            long from = Math.max(1, q.purgedBelow);
            long room = Math.min(Math.min(budget.room(q), LOAD_HEAD), Integer.MAX_VALUE - 1);
            List<Message> ms = engine.tails.read(q, from, (int) room + 1);
            long next = -1; // the first seq past the head, when there is one
            if (ms.size() > room) {
                next = ms.remove(ms.size() - 1).seq;
            }
            q.beginLoad();
            for (Message m : ms) {
                if (m.visibleAt <= loadedAt) { // what the first tick at loadedAt would do, without the churn
                    m.state = Message.State.VISIBLE; // visibleAt stays: visible since then (FifoDelivery)
                }
                q.add(m);
            }
            q.endLoad();
            long maxSeq = ms.isEmpty() ? 0 : ms.get(ms.size() - 1).seq;
            if (next >= 0) {
                long last = lastSeq(q);
                maxSeq = Math.max(maxSeq, last);
                q.tailFrom = next;
                q.uncountedFrom = next;
                q.uncountedTo = last + 1;
            }
            q.nextSeq = Math.max(reserved.getOrDefault(q.id, 1L), maxSeq + 1);
            q.reservedSeq = q.nextSeq;
        }
        store.scan(Keyspace.DEDUP, new byte[0], (k, v) -> {
            QueueState q = byId.get(Keys.queueIdOf(k));
            if (q == null) {
                if (isLeftover(Keys.queueIdOf(k))) {
                    leftovers.add(Keys.queueIdOf(k));
                }
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
        // Deleted names and move tasks only ('n', 't'): send-once records ('o') are read by their sends
        // alone, so a million of them cost a start-up nothing.
        Store.EntryVisitor housekeeping = (k, v) -> {
            if (k[0] == 'n') {
                String rest = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
                int zero = rest.indexOf('\0');
                if (engine.shard.owns(rest.substring(0, zero))) {
                    engine.loadedDeletedName(rest.substring(0, zero), rest.substring(zero + 1), Dec.of(v, 1, "deleted name").i64());
                }
            } else if (k[0] == 't') {
                String id = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
                MoveTask task = MoveTask.decode(id, v);
                if (engine.shard.owns(MoveTask.accountOf(task.sourceArn))) {
                    engine.tasks.loaded(task);
                }
            }
            return true;
        };
        store.scan(Keyspace.HOUSEKEEPING, new byte[] {'n'}, housekeeping);
        store.scan(Keyspace.HOUSEKEEPING, new byte[] {'t'}, housekeeping);
        byId.values().forEach(engine.queues::add);
        byId.values().forEach(engine.tails::register);
        // A first chunk of counting (keys only) at once: a short tail is exact from the start; a
        // long one is counted on by the ticks.
        engine.tails.count(LOAD_COUNT);
        for (long qid : leftovers) {
            QueueState q = byId.get(qid);
            if (q == null && engine.shard.count() > 1) {
                engine.orphans.add(qid, Long.MAX_VALUE); // maybe another shard's: kept apart from this one's state
            } else {
                engine.cleanups.add(qid, q == null ? Long.MAX_VALUE : q.purgedBelow);
            }
        }
    }

    /**
     * Whether keys of queue id {@code qid}, which has no record this engine loaded, are leftovers of
     * a deleted queue for this engine to remove. Not when another shard's queue has that id; with
     * several shards, only shard 0 removes keys without any record, and only of ids allocated before
     * this load began (an id above the floor may be a queue another shard is creating right now,
     * whose record this load's scan came too early to see).
     */
    private boolean isLeftover(long qid) {
        if (foreign.contains(qid)) {
            return false;
        }
        return engine.shard.count() == 1 || (engine.shard.index() == 0 && qid <= floor);
    }

    /** The seq of {@code q}'s last stored message (0 when none). */
    private long lastSeq(QueueState q) {
        byte[] k = store.lastKey(Keyspace.MESSAGES, Keys.queue(q.id));
        return k == null ? 0 : Keys.seqOf(k);
    }

    /**
     * Adds to {@code leftovers} every queue id with keys in {@code space} that belong to no queue,
     * or lie below its purge bound: reads the first key of each queue id in the store, one seek
     * each (keys start with the queue id).
     */
    private void findLeftovers(Keyspace space, Map<Long, QueueState> byId, java.util.Set<Long> leftovers) {
        byte[] from = new byte[0];
        while (true) {
            byte[][] first = new byte[1][];
            store.scanFrom(space, new byte[0], from, 1, (k, v) -> {
                first[0] = k;
                return false;
            });
            if (first[0] == null) {
                return;
            }
            long qid = Keys.queueIdOf(first[0]);
            QueueState q = byId.get(qid);
            if (q == null ? isLeftover(qid) : Keys.seqOf(first[0]) < q.purgedBelow) {
                leftovers.add(qid);
            }
            if (qid == Long.MAX_VALUE) {
                return;
            }
            from = Keys.queue(qid + 1);
        }
    }
}
