package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One queue: its persisted record (settings, tags, permissions, timestamps) and the in-memory
 * indexes receive needs. Every index operation is O(log n); nothing walks the message set except
 * purge and delete (which must touch every message anyway).
 */
final class QueueState {

    static final int INFLIGHT_LIMIT = 120_000;
    /** SQS's 5-minute deduplication interval; also how long ReceiveRequestAttemptIds are remembered.
     *  It must fit within {@code Keyspace.DEDUP.maxEntryLifetimeMillis()}, what stores are promised. */
    static final long DEDUP_WINDOW_MS = 5 * 60_000L;
    private static final int RECORD_VERSION = 1;
    private static final long SEQ_BLOCK = 1024;

    final long id;
    final String accountId;
    final String name;
    final String region;
    final String arn;
    final boolean fifo;
    final long createdAt;
    long lastModifiedAt;
    long lastPurgeAt = Long.MIN_VALUE;
    QueueSettings settings;
    final TreeMap<String, String> tags = new TreeMap<>();
    final List<PolicyDocument.Statement> permissions = new ArrayList<>();

    /** Retention expiries one advance applies at most; the rest follow at the next ticks (bounded work). */
    static final int RETENTION_CHUNK = 1000;
    /** Dedup expiries one advance applies at most (an expired entry is ignored by sends anyway). */
    static final int DEDUP_CHUNK = 1000;

    // ---- indexes (replaced whole by purge and DeleteQueue: O(1), the old ones go to the GC) ----
    MessagesBySeq messages = new MessagesBySeq();
    /** DELAYED and INFLIGHT messages by the time they become visible. */
    AppendOrderedSet pending = new AppendOrderedSet(AppendOrderedSet.Order.BY_VISIBLE_AT);
    /** All messages by SentTimestamp: retention expiry pops from the front. */
    AppendOrderedSet retention = new AppendOrderedSet(AppendOrderedSet.Order.BY_SENT_AT);
    Delivery delivery;
    /** Where decoded bodies of unreceived messages are kept (set when the queue is registered). */
    BodyCache bodies = new BodyCache(0);
    /** What {@link #bodies} holds for this queue, so a purge can give it back without a walk. */
    long cachedBytes;
    /** The engine-wide index budget (set when the queue is registered). */
    IndexBudget budget = new IndexBudget(Long.MAX_VALUE);
    int visible;
    int inflight;
    int delayed;
    /**
     * The spilled tail: stored messages with seq >= {@link #tailFrom} that the index does not hold
     * (ENGINE.md "Memory"). Counted as visible; paged in, in seq order, as the head drains.
     */
    long tail;
    long tailFrom;
    /**
     * Stored tail messages not counted yet (after a load that left a long backlog): the keys with
     * seq in [uncountedFrom, uncountedTo) are counted in chunks by the tick ({@link Tails}); until
     * then their number is estimated by the width of the range. Empty range: all counted.
     */
    long uncountedFrom;
    long uncountedTo;
    /** Seqs below this were purged: their store keys are being removed in chunks (persisted in META). */
    long purgedBelow;
    long nextSeq = 1;
    long reservedSeq = 1;
    DedupWindow dedup = new DedupWindow();
    final Map<String, AttemptEntry> attempts = new HashMap<>();
    final TreeSet<AttemptEntry> attemptsByExpiry = new TreeSet<>(AttemptEntry.BY_EXPIRY);
    /** While loading: every message, for a bulk insert into {@link #retention}. */
    private List<Message> retentionLoad;
    /**
     * Until this time deduplication keeps the scope it had before the last DeduplicationScope change
     * (sqs-behaviours 80: SQS still deduplicated queue-wide right after a change to messageGroup; its
     * docs give attribute changes up to 60 s to propagate). Long.MIN_VALUE: no change pending.
     */
    long dedupScopeSettlesAt = Long.MIN_VALUE;
    boolean dedupPerGroupBefore;
    /** This queue's key in the engine's timer schedule (Long.MAX_VALUE = not scheduled). */
    long scheduledAt = Long.MAX_VALUE;

    QueueState(long id, String accountId, String name, String region, boolean fifo, long createdAt,
               QueueSettings settings) {
        this.id = id;
        this.accountId = accountId;
        this.name = name;
        this.region = region;
        this.arn = "arn:aws:sqs:" + region + ":" + accountId + ":" + name;
        this.fifo = fifo;
        this.createdAt = createdAt;
        this.lastModifiedAt = createdAt;
        this.settings = settings;
        this.delivery = fifo ? new FifoDelivery() : new FairDelivery();
    }

    /** Appends {@code seq} to the spilled tail (a message stored but not indexed). */
    void spill(long seq) {
        if (!hasTail()) {
            tailFrom = seq;
        }
        tail++;
        budget.spilled++;
    }

    /** True while stored messages lie past the index (counted or not yet). */
    boolean hasTail() {
        return tail > 0 || uncountedFrom < uncountedTo;
    }

    /** The estimate of the tail messages not counted yet: the width of their seq range (exact without gaps). */
    long uncountedEstimate() {
        return Math.max(0, uncountedTo - uncountedFrom);
    }

    QueueRef ref() {
        return new QueueRef(accountId, name);
    }

    QueueInfo info() {
        return new QueueInfo(accountId, name, region, arn, fifo);
    }

    FairDelivery fair() {
        return (FairDelivery) delivery;
    }

    FifoDelivery fifoDelivery() {
        return (FifoDelivery) delivery;
    }

    // ---- message index ----

    /** Start of the loader's rebuild: retention entries are collected and bulk-inserted at {@link #endLoad}. */
    void beginLoad() {
        retentionLoad = new ArrayList<>();
        if (!fifo) {
            fair().beginLoad();
        }
    }

    void endLoad() {
        List<Message> ms = retentionLoad;
        retentionLoad = null;
        ms.sort(Message.BY_SENT_AT); // nearly sorted already (seq order): TimSort makes this linear
        ms.forEach(retention::add); // in order: every entry is an append
        if (!fifo) {
            fair().endLoad(); // fair-queue noisiness is derived from the rebuilt state (ENGINE.md)
        }
    }

    void add(Message m) {
        messages.put(m.seq, m);
        budget.indexed++;
        if (retentionLoad != null) {
            retentionLoad.add(m);
        } else {
            retention.add(m);
        }
        if (m.state != Message.State.VISIBLE) {
            pending.add(m);
        }
        count(m.state, 1);
        delivery.added(m);
    }

    void remove(Message m) {
        releaseBody(m);
        messages.remove(m.seq);
        budget.indexed--;
        retention.remove(m);
        if (m.state != Message.State.VISIBLE) {
            pending.remove(m);
        }
        count(m.state, -1);
        delivery.removed(m);
    }

    /** Keeps {@code sm} on {@code m} if the body cache has room; false when it had none. */
    boolean cacheBody(Message m, StoredMessage sm) {
        long charge = bodies.offer(m, sm);
        cachedBytes += charge;
        return charge > 0;
    }

    void releaseBody(Message m) {
        cachedBytes -= bodies.release(m);
    }

    /**
     * Forgets every message, tail and dedup entry at once (purge, DeleteQueue): fresh indexes
     * replace the old ones in O(1); the store keys are removed later, in chunks ({@link Cleanups}).
     * Receive attempts are removed here, with their store keys (five minutes of receives at most).
     */
    void resetIndexes(StoreBatch b) {
        budget.indexed -= messages.size();
        budget.dedup -= dedup.size();
        budget.spilled -= tail;
        bodies.forget(cachedBytes);
        cachedBytes = 0;
        messages = new MessagesBySeq();
        pending = new AppendOrderedSet(AppendOrderedSet.Order.BY_VISIBLE_AT);
        retention = new AppendOrderedSet(AppendOrderedSet.Order.BY_SENT_AT);
        delivery = fifo ? new FifoDelivery() : new FairDelivery();
        dedup = new DedupWindow();
        visible = 0;
        inflight = 0;
        delayed = 0;
        tail = 0;
        uncountedFrom = uncountedTo;
        for (String a : new ArrayList<>(attempts.keySet())) {
            removeAttempt(a, b);
        }
    }

    /**
     * Visible messages as counted for ApproximateNumberOfMessages: the index's and the spilled
     * tail's (with the estimate of its part not counted yet).
     */
    long visibleCount() {
        return visible + tail + uncountedEstimate();
    }

    /** Moves {@code m} to {@code state}; {@code visibleAt} matters for DELAYED / INFLIGHT. */
    void transition(Message m, Message.State state, long visibleAt) {
        Message.State before = m.state;
        if (before != Message.State.VISIBLE) {
            pending.remove(m);
        }
        count(before, -1);
        m.state = state;
        m.visibleAt = visibleAt;
        count(state, 1);
        if (state != Message.State.VISIBLE) {
            pending.add(m);
        }
        delivery.changed(m, before);
    }

    private void count(Message.State s, int d) {
        switch (s) {
            case VISIBLE -> visible += d;
            case INFLIGHT -> inflight += d;
            case DELAYED -> delayed += d;
        }
    }

    /** Removes a message and its store keys. */
    void deleteMessage(Message m, StoreBatch b) {
        remove(m);
        if (m.rewritten) {
            b.delete(Keyspace.MESSAGES, Keys.message(id, m.seq)); // written twice: SingleDelete would uncover the first
        } else {
            b.deleteOnceWritten(Keyspace.MESSAGES, Keys.message(id, m.seq));
        }
        if (m.receiveCount > 0) {
            b.delete(Keyspace.MESSAGE_STATE, Keys.message(id, m.seq));
        }
    }

    /** The next message seq; reserves seqs in blocks in META so restarts never reuse one. */
    long allocateSeq(StoreBatch b) {
        long seq = nextSeq++;
        if (nextSeq > reservedSeq) {
            reservedSeq = nextSeq + SEQ_BLOCK;
            b.put(Keyspace.META, Keys.seqReservation(id), Enc.version(1).i64(reservedSeq).done());
        }
        return seq;
    }

    // ---- dedup and attempts ----

    static final long ATTRIBUTE_PROPAGATION_MS = 60_000;

    /** Whether deduplication at {@code now} is per message group. */
    boolean dedupPerGroup(long now) {
        return now < dedupScopeSettlesAt ? dedupPerGroupBefore : settings.dedupPerGroup;
    }

    /** Called before {@link #settings} takes a new DeduplicationScope at {@code now}. */
    void dedupScopeChanged(long now) {
        dedupPerGroupBefore = dedupPerGroup(now);
        dedupScopeSettlesAt = now + ATTRIBUTE_PROPAGATION_MS;
    }

    void putDedup(DedupEntry e, StoreBatch b) {
        int before = dedup.size();
        DedupEntry old = dedup.put(e);
        budget.dedup += dedup.size() - before;
        if (old != null) {
            // A plain delete: an older-form key may have been written more than once.
            b.delete(Keyspace.DEDUP, Keys.dedupEntry(id, old));
        }
        b.put(Keyspace.DEDUP, Keys.dedupEntry(id, e), e.storedValue());
    }

    void removeDedup(DedupEntry e, StoreBatch b) {
        int before = dedup.size();
        dedup.remove(e);
        budget.dedup += dedup.size() - before;
        if (e.keyedBySeq()) {
            b.deleteOnceWritten(Keyspace.DEDUP, Keys.dedupEntry(id, e)); // a sequence number is written once
        } else {
            b.delete(Keyspace.DEDUP, Keys.dedupEntry(id, e));
        }
    }

    void putAttempt(AttemptEntry e, StoreBatch b) {
        removeAttempt(e.attemptId(), b);
        attempts.put(e.attemptId(), e);
        attemptsByExpiry.add(e);
        b.put(Keyspace.DEDUP, Keys.attempt(id, e.attemptId()), e.encode());
    }

    void removeAttempt(String attemptId, StoreBatch b) {
        AttemptEntry old = attempts.remove(attemptId);
        if (old != null) {
            attemptsByExpiry.remove(old);
            b.delete(Keyspace.DEDUP, Keys.attempt(id, attemptId));
        }
    }

    // ---- timers ----

    /**
     * Processes everything due at {@code now}: retention expiry (with store deletes), delay and
     * visibility expiry (memory only: the persisted visibleAt already says so), dedup and attempt
     * expiry. Returns true when messages became visible.
     */
    boolean advance(long now, StoreBatch b) {
        long retentionMs = settings.retentionMillis();
        for (int n = 0; n < RETENTION_CHUNK && !retention.isEmpty() && retention.first().sentAt + retentionMs <= now; n++) {
            deleteMessage(retention.first(), b);
        }
        boolean becameVisible = false;
        while (!pending.isEmpty() && pending.first().visibleAt <= now) {
            Message m = pending.first();
            transition(m, Message.State.VISIBLE, m.visibleAt); // visible since its deadline (FifoDelivery)
            becameVisible = true;
        }
        for (int n = 0; n < DEDUP_CHUNK && dedup.firstExpiresAt() <= now; n++) {
            removeDedup(dedup.first(), b);
        }
        while (!attemptsByExpiry.isEmpty() && attemptsByExpiry.first().expiresAt() <= now) {
            removeAttempt(attemptsByExpiry.first().attemptId(), b);
        }
        return becameVisible;
    }

    /** True when {@code m} has outlived the retention period at {@code now} (receive skips it). */
    boolean expired(Message m, long now) {
        return m.sentAt + settings.retentionMillis() <= now;
    }

    /** The earliest time {@link #advance} has something to do, or Long.MAX_VALUE. */
    long deadline() {
        long d = Long.MAX_VALUE;
        if (!retention.isEmpty()) {
            d = Math.min(d, retention.first().sentAt + settings.retentionMillis());
        }
        if (!pending.isEmpty()) {
            d = Math.min(d, pending.first().visibleAt);
        }
        d = Math.min(d, dedup.firstExpiresAt());
        if (!attemptsByExpiry.isEmpty()) {
            d = Math.min(d, attemptsByExpiry.first().expiresAt());
        }
        return d;
    }

    // ---- persistence of the queue record ----

    byte[] encodeRecord() {
        Enc e = Enc.version(RECORD_VERSION).str(accountId).str(name).str(region).bool(fifo).i64(createdAt)
                .i64(lastModifiedAt).i64(lastPurgeAt);
        settings.encode(e);
        e.strMap(tags);
        e.i32(permissions.size());
        for (PolicyDocument.Statement s : permissions) {
            e.str(s.label()).strList(s.accountIds()).strList(s.actions());
        }
        if (dedupScopeSettlesAt != Long.MIN_VALUE) {
            e.i64(dedupScopeSettlesAt).bool(dedupPerGroupBefore); // optional tail: older records end before it
        }
        return e.done();
    }

    static QueueState decodeRecord(long id, byte[] value) {
        Dec d = Dec.of(value, RECORD_VERSION, "queue");
        String account = d.str();
        String name = d.str();
        String region = d.str();
        boolean fifo = d.bool();
        long created = d.i64();
        long modified = d.i64();
        long purged = d.i64();
        QueueSettings settings = QueueSettings.decode(d);
        QueueState q = new QueueState(id, account, name, region, fifo, created, settings);
        q.lastModifiedAt = modified;
        q.lastPurgeAt = purged;
        q.tags.putAll(d.strMap());
        int n = d.i32();
        for (int i = 0; i < n; i++) {
            q.permissions.add(new PolicyDocument.Statement(d.str(), d.strList(), d.strList()));
        }
        if (d.hasMore()) {
            q.dedupScopeSettlesAt = d.i64();
            q.dedupPerGroupBefore = d.bool();
        }
        return q;
    }

    void writeRecord(StoreBatch b) {
        b.put(Keyspace.QUEUES, Keys.queue(id), encodeRecord());
    }
}
