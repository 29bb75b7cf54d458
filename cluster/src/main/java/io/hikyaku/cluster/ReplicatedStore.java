package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store the leader's engine writes to: every batch goes to the Raft log, and the inner store (the
 * node's RocksDB) only ever receives committed batches, applied in log order by {@link #apply} on
 * every replica. See CLUSTER.md.
 *
 * <p>On the leader a written batch is first put in the {@link Overlay} (so reads see it at once), then
 * queued; one batcher thread packs everything queued into one Raft entry (group commit) and keeps a
 * few entries in flight. A batch's future completes when its entry has been applied to the inner
 * store. If a proposal fails, its batches and every later one fail, the overlay is dropped and
 * nothing is proposed until {@link #resume()} (the engine above is fenced and reloaded from the inner
 * store, which then holds exactly the committed prefix).
 *
 * <p>Writes are refused until the first successful {@link #resume()}: a node accepts writes only as
 * the ready leader.
 */
final class ReplicatedStore implements Store {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedStore.class);

    /** META key of the applied (term, index): no engine META key is this long with this text (Keys, EngineShard). */
    static final byte[] APPLIED_KEY = "hikyaku.cluster.applied".getBytes(StandardCharsets.UTF_8);

    /** At most this many store batches go into one entry. */
    static final int MAX_BATCHES_PER_ENTRY = 512;
    /** At most this many bytes of batches go into one entry (a bigger batch travels alone). */
    static final int MAX_ENTRY_BYTES = 2 << 20;
    /**
     * A batch bigger than this cannot be replicated: one Raft entry may not exceed the appender's
     * buffer limit (RaftSettings, 4 MB), with room for the entry's own framing.
     */
    static final int MAX_BATCH_BYTES = (4 << 20) - (64 << 10);
    /**
     * Entries proposed and not yet answered by Ratis, at most. Pacing is adaptive below this bound:
     * a new entry goes out when every earlier one has been applied here, and a second one only when a
     * full entry is waiting ({@link #mayPropose}).
     */
    static final int MAX_IN_FLIGHT = 4;

    /** Submits one entry; the future completes when it was committed and applied here, exceptionally when not. */
    interface Proposer {
        CompletableFuture<?> propose(long callId, byte[] entry);
    }

    /** Whether this node leads and has applied every entry of earlier terms (Ratis "leader ready"). */
    interface Leadership {
        boolean isReadyLeader();
    }

    /** A written batch waiting to be proposed ({@code writtenAt}: System.nanoTime at write). */
    private record Queued(StoreBatch batch, long seq, int bytes, CompletableFuture<Void> future, long writtenAt) {}

    /** One proposed entry, with the times of its stages (ReplicationStages). */
    private static final class Proposal {
        final long callId;
        final List<Queued> batches;
        final long takenAt;
        volatile long submittedAt;
        volatile long appliedAt;

        Proposal(long callId, List<Queued> batches, long takenAt) {
            this.callId = callId;
            this.batches = batches;
            this.takenAt = takenAt;
        }

        long lastSeq() {
            return batches.get(batches.size() - 1).seq();
        }
    }

    private final Store inner;
    private final Overlay overlay = new Overlay();
    private volatile Proposer proposer;
    private volatile Leadership leadership;
    private final long proposalTimeoutMillis;
    private final int pipelineAt;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Why writes are refused, or null while this store accepts them (guarded by lock). */
    private StoreException failure = new StoreException("not the cluster leader (this node has not become the ready leader yet)");
    private long lastSeq;
    private long lastCallId;
    private final ArrayDeque<Queued> queued = new ArrayDeque<>();
    private final TreeMap<Long, Proposal> proposals = new TreeMap<>();
    /** Entries handed to Ratis whose Ratis future has not completed (even if their batches were failed). */
    private int inFlight;
    private boolean closed;
    private final Thread batcher;
    private final java.util.concurrent.ScheduledExecutorService timer;

    /** Apply state (apply thread only). */
    private long lastAppliedOwnCallId;
    private volatile boolean halted;

    private final AtomicLong entriesApplied = new AtomicLong();
    private final AtomicLong batchesApplied = new AtomicLong();
    private final AtomicLong entriesProposed = new AtomicLong();
    private final AtomicLong batchesProposed = new AtomicLong();
    private volatile int maxBatchesPerEntry;
    private final ReplicationStages stages = new ReplicationStages();
    /** Bytes of the batches in {@code queued} (guarded by lock). */
    private long queuedBytes;

    ReplicatedStore(Store inner, long proposalTimeoutMillis) {
        this(inner, proposalTimeoutMillis, MAX_BATCHES_PER_ENTRY);
    }

    /**
     * {@code pipelineAt}: how many queued batches justify another entry while one is proposed and not
     * yet applied ({@link #mayPropose}; a full entry by default, 1 pipelines every batch at once, as
     * tests of several entries in flight need).
     */
    ReplicatedStore(Store inner, long proposalTimeoutMillis, int pipelineAt) {
        this.inner = inner;
        this.proposalTimeoutMillis = proposalTimeoutMillis;
        this.pipelineAt = pipelineAt;
        this.timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hikyaku-cluster-proposal-timeout");
            t.setDaemon(true);
            return t;
        });
        this.batcher = new Thread(this::runBatcher, "hikyaku-cluster-batcher");
        this.batcher.setDaemon(true);
    }

    /** Wiring: the Ratis side, then the batcher starts. */
    void start(Proposer proposer, Leadership leadership) {
        this.proposer = proposer;
        this.leadership = leadership;
        batcher.start();
    }

    Store inner() {
        return inner;
    }

    // ---------------------------------------------------------------- reads: overlay over inner

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        Overlay.Pending p = overlay.get(space, key);
        if (p != null) {
            return p.value();
        }
        return inner.get(space, key);
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        List<Map.Entry<byte[], Overlay.Pending>> pending = overlay.range(space, prefix, prefix);
        if (pending.isEmpty()) {
            inner.scan(space, prefix, visitor);
        } else {
            merge(pending, v -> inner.scan(space, prefix, v), visitor);
        }
    }

    @Override
    public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        List<Map.Entry<byte[], Overlay.Pending>> pending = overlay.range(space, prefix, prefix);
        if (pending.isEmpty()) {
            inner.scanHeads(space, prefix, headBytes, visitor);
        } else {
            merge(pending, v -> inner.scanHeads(space, prefix, headBytes, v), visitor);
        }
    }

    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        List<Map.Entry<byte[], Overlay.Pending>> pending = overlay.range(space, prefix, from);
        if (pending.isEmpty()) {
            inner.scanFrom(space, prefix, from, headBytes, visitor);
        } else {
            merge(pending, v -> inner.scanFrom(space, prefix, from, headBytes, v), visitor);
        }
    }

    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        List<Map.Entry<byte[], Overlay.Pending>> pending = overlay.range(space, prefix, prefix);
        byte[] innerLast = inner.lastKey(space, prefix);
        if (pending.isEmpty()) {
            return innerLast;
        }
        byte[] pendingLast = null;
        Overlay.Pending atInnerLast = null;
        for (Map.Entry<byte[], Overlay.Pending> e : pending) {
            if (!e.getValue().isTombstone()) {
                pendingLast = e.getKey();
            }
            if (innerLast != null && Arrays.equals(e.getKey(), innerLast)) {
                atInnerLast = e.getValue();
            }
        }
        if (atInnerLast != null && atInnerLast.isTombstone()) {
            // the inner store's last key is deleted (pending): walk the merged view (rare: a load
            // while a delete of a queue's newest message is in flight)
            byte[][] last = new byte[1][];
            merge(pending, v -> inner.scanHeads(space, prefix, 1, v), (k, v) -> {
                last[0] = k;
                return true;
            });
            return last[0];
        }
        if (innerLast == null) {
            return pendingLast;
        }
        if (pendingLast == null) {
            return innerLast;
        }
        return Arrays.compareUnsigned(pendingLast, innerLast) > 0 ? pendingLast : innerLast;
    }

    /**
     * Visits the inner scan merged with the pending writes (both in key order): a pending write
     * replaces the inner entry of its key, a pending tombstone hides it.
     */
    private static void merge(List<Map.Entry<byte[], Overlay.Pending>> pending,
                              java.util.function.Consumer<EntryVisitor> innerScan, EntryVisitor visitor) {
        int[] next = {0};
        boolean[] stopped = {false};
        innerScan.accept((k, v) -> {
            while (next[0] < pending.size()) {
                Map.Entry<byte[], Overlay.Pending> p = pending.get(next[0]);
                int c = Arrays.compareUnsigned(p.getKey(), k);
                if (c > 0) {
                    break;
                }
                next[0]++;
                if (c == 0) {
                    if (p.getValue().isTombstone()) {
                        return true; // hidden
                    }
                    if (!visitor.visit(p.getKey(), p.getValue().value())) {
                        stopped[0] = true;
                        return false;
                    }
                    return true;
                }
                if (!p.getValue().isTombstone() && !visitor.visit(p.getKey(), p.getValue().value())) {
                    stopped[0] = true;
                    return false;
                }
            }
            if (!visitor.visit(k, v)) {
                stopped[0] = true;
                return false;
            }
            return true;
        });
        if (stopped[0]) {
            return;
        }
        for (int i = next[0]; i < pending.size(); i++) {
            Map.Entry<byte[], Overlay.Pending> p = pending.get(i);
            if (!p.getValue().isTombstone() && !visitor.visit(p.getKey(), p.getValue().value())) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- writes: overlay, then the log

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        int bytes;
        try {
            bytes = EntryCodec.size(batch);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new StoreException(e.getMessage(), e));
        }
        if (bytes > MAX_BATCH_BYTES) {
            // fail-stop like any failed write: a later batch may depend on this one
            StoreException tooBig = new StoreException("store batch of " + bytes + " bytes exceeds the "
                    + MAX_BATCH_BYTES + " bytes one replicated entry can carry");
            fail(Long.MAX_VALUE, tooBig); // no entry in flight fails: only what is queued, and later writes
            return CompletableFuture.failedFuture(tooBig);
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        lock.lock();
        try {
            if (failure != null) {
                return CompletableFuture.failedFuture(refused(failure));
            }
            long seq = ++lastSeq;
            overlay.add(batch, seq);
            queued.add(new Queued(batch, seq, bytes, future, System.nanoTime()));
            queuedBytes += bytes;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        return future;
    }

    private void runBatcher() {
        while (true) {
            Proposal proposal;
            lock.lock();
            try {
                while (!closed && (queued.isEmpty() || failure != null || !mayPropose())) {
                    changed.awaitUninterruptibly();
                }
                if (closed) {
                    return;
                }
                List<Queued> batches = new ArrayList<>();
                long bytes = 0;
                while (!queued.isEmpty() && batches.size() < MAX_BATCHES_PER_ENTRY) {
                    Queued q = queued.peek();
                    if (!batches.isEmpty() && bytes + q.bytes() > MAX_ENTRY_BYTES) {
                        break;
                    }
                    queued.poll();
                    queuedBytes -= q.bytes();
                    batches.add(q);
                    bytes += q.bytes();
                }
                proposal = new Proposal(++lastCallId, batches, System.nanoTime());
                proposals.put(proposal.callId, proposal);
                inFlight++;
            } finally {
                lock.unlock();
            }
            entriesProposed.incrementAndGet();
            batchesProposed.addAndGet(proposal.batches.size());
            if (proposal.batches.size() > maxBatchesPerEntry) {
                maxBatchesPerEntry = proposal.batches.size();
            }
            for (Queued q : proposal.batches) {
                stages.record(ReplicationStages.Stage.QUEUED, proposal.takenAt - q.writtenAt());
            }
            CompletableFuture<?> answered;
            try {
                byte[] entry = EntryCodec.encode(proposal.batches.stream().map(Queued::batch).toList());
                answered = proposer.propose(proposal.callId, entry);
            } catch (RuntimeException e) {
                answered = CompletableFuture.failedFuture(e);
            }
            long submitted = System.nanoTime();
            proposal.submittedAt = submitted;
            stages.record(ReplicationStages.Stage.SUBMIT, submitted - proposal.takenAt);
            Proposal sent = proposal;
            long callId = proposal.callId;
            java.util.concurrent.ScheduledFuture<?> timeout = timer.schedule(
                    () -> fail(callId, new StoreException("not committed within " + proposalTimeoutMillis + " ms")),
                    proposalTimeoutMillis, TimeUnit.MILLISECONDS);
            answered.whenComplete((reply, error) -> {
                timeout.cancel(false);
                long appliedAt = sent.appliedAt;
                if (error == null && appliedAt != 0) {
                    stages.record(ReplicationStages.Stage.ANSWER, System.nanoTime() - appliedAt);
                }
                lock.lock();
                try {
                    inFlight--;
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
                if (error != null) {
                    Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                            ? error.getCause() : error;
                    fail(callId, new StoreException("replication failed: " + cause, cause));
                }
            });
        }
    }

    /**
     * Fails the entry {@code callId} (if still pending), every later entry and every queued batch,
     * drops the overlay and refuses writes until {@link #resume()}. Earlier entries stay pending: they
     * may still commit.
     */
    void fail(long fromCallId, StoreException why) {
        List<CompletableFuture<Void>> failed = new ArrayList<>();
        lock.lock();
        try {
            if (failure == null) {
                failure = why;
                LOG.warn("replicated writes stop until this node is the ready leader again: {}", why.getMessage());
            }
            Iterator<Map.Entry<Long, Proposal>> it = proposals.tailMap(fromCallId, true).entrySet().iterator();
            while (it.hasNext()) {
                it.next().getValue().batches.forEach(q -> failed.add(q.future()));
                it.remove();
            }
            queued.forEach(q -> failed.add(q.future()));
            queued.clear();
            queuedBytes = 0;
            overlay.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        StoreException refusal = refused(why);
        failed.forEach(f -> f.completeExceptionally(refusal));
    }

    /** Leadership was lost: everything pending fails (it may still commit under the new leader). */
    void leadershipLost(String why) {
        lock.lock();
        try {
            if (failure != null && proposals.isEmpty() && queued.isEmpty()) {
                return;
            }
        } finally {
            lock.unlock();
        }
        fail(Long.MIN_VALUE, new StoreException("this node is no longer the cluster leader (" + why + ")"));
    }

    /**
     * True when writes are accepted: this node is the ready leader (it applied every entry of earlier
     * terms, so no entry of this node's own earlier proposals can still be applied on top of a
     * reloaded engine), and no entry of its own is in flight. The inner store then holds exactly the
     * committed prefix the engine is reloaded from.
     */
    @Override
    public boolean resume() {
        lock.lock();
        try {
            if (failure == null) {
                return true;
            }
            if (closed || halted || leadership == null || !leadership.isReadyLeader()) {
                return false;
            }
            if (inFlight > 0 || !proposals.isEmpty() || !queued.isEmpty()) {
                return false;
            }
            overlay.clear();
            failure = null;
            LOG.info("replicated writes accepted: this node is the ready leader");
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether writes are accepted now (after a successful resume, before any failure). */
    boolean accepting() {
        lock.lock();
        try {
            return failure == null;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- apply (every replica)

    /**
     * Applies a committed entry: its batches and the applied (term, index) go to the inner store in
     * one atomic batch. Called in log order by the one apply thread. {@code ownCallId} is the entry's
     * call id if this node proposed it in this life, else -1. Throws if the inner store refused it
     * (the caller stops the node: nothing after it may be applied).
     */
    void apply(long term, long index, long ownCallId, ByteBuffer data) {
        long start = System.nanoTime();
        if (halted) {
            throw new StoreException("replication halted after an earlier apply failure");
        }
        List<StoreBatch> batches = EntryCodec.decode(data);
        StoreBatch combined = new StoreBatch();
        for (StoreBatch b : batches) {
            for (StoreBatch.Op op : b.ops()) {
                switch (op.kind()) {
                    case PUT -> combined.put(op.space(), op.key(), op.value());
                    case DELETE -> combined.delete(op.space(), op.key());
                    case DELETE_ONCE_WRITTEN -> combined.deleteOnceWritten(op.space(), op.key());
                }
            }
        }
        combined.put(Keyspace.META, APPLIED_KEY, encodeApplied(term, index));
        inner.write(combined).join(); // Durability.NONE: done at once; a failure is thrown
        long applied = System.nanoTime();
        stages.record(ReplicationStages.Stage.APPLY, applied - start);
        entriesApplied.incrementAndGet();
        batchesApplied.addAndGet(batches.size());
        if (ownCallId < 0) {
            return;
        }
        if (ownCallId <= lastAppliedOwnCallId) {
            throw new StoreException("entries applied out of proposal order: call " + ownCallId
                    + " after " + lastAppliedOwnCallId);
        }
        lastAppliedOwnCallId = ownCallId;
        Proposal proposal;
        lock.lock();
        try {
            proposal = proposals.remove(ownCallId);
            if (proposal != null) {
                long upTo = proposal.lastSeq();
                for (Queued q : proposal.batches) {
                    overlay.settle(q.batch(), upTo);
                }
                changed.signalAll(); // the batcher may send the next entry (mayPropose)
            }
        } finally {
            lock.unlock();
        }
        if (proposal != null) {
            long submitted = proposal.submittedAt;
            stages.record(ReplicationStages.Stage.COMMIT, start - (submitted != 0 ? submitted : proposal.takenAt));
            proposal.appliedAt = applied;
            proposal.batches.forEach(q -> q.future().complete(null));
            long done = System.nanoTime();
            for (Queued q : proposal.batches) {
                stages.record(ReplicationStages.Stage.WRITE, done - q.writtenAt());
            }
        }
    }

    /** After an apply failure: nothing more is applied or accepted. */
    void halt(StoreException why) {
        halted = true;
        fail(Long.MIN_VALUE, why);
    }

    boolean halted() {
        return halted;
    }

    /** The applied (term, index) the inner store holds, or null if it holds none. */
    long[] persistedApplied() {
        byte[] v = inner.get(Keyspace.META, APPLIED_KEY);
        if (v == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(v);
        if (v.length != 17 || b.get() != 1) {
            throw new StoreException("unreadable applied index in the store (" + v.length + " bytes)");
        }
        return new long[] {b.getLong(), b.getLong()};
    }

    /**
     * Writes the applied (term, index) alone (apply thread, no entry being applied): before a snapshot,
     * and after the store was replaced by one.
     */
    void recordApplied(long term, long index) {
        inner.write(new StoreBatch().put(Keyspace.META, APPLIED_KEY, encodeApplied(term, index))).join();
    }

    static byte[] encodeApplied(long term, long index) {
        return ByteBuffer.allocate(17).put((byte) 1).putLong(term).putLong(index).array();
    }

    /**
     * Whether the batcher may send an entry now (guarded by lock; something is queued). Adaptive group
     * commit without a timer: while an entry of this node is proposed and not yet applied here, what is
     * written meanwhile waits and goes out as one entry the moment the earlier one is applied (so the
     * entry carries everything written during one replication round trip). Only a full entry (the
     * batch or byte bound) is pipelined behind one in flight, up to {@link #MAX_IN_FLIGHT} entries.
     * Fewer, bigger entries cost the machine less per batch (Ratis' per-entry work, fsyncs, RPCs).
     */
    private boolean mayPropose() {
        if (inFlight >= MAX_IN_FLIGHT) {
            return false;
        }
        if (proposals.isEmpty()) {
            return true;
        }
        return queued.size() >= pipelineAt || queuedBytes >= MAX_ENTRY_BYTES;
    }

    ClusterStats stats() {
        return new ClusterStats(entriesApplied.get(), batchesApplied.get(), entriesProposed.get(),
                batchesProposed.get(), maxBatchesPerEntry, stages.snapshot());
    }

    /** Keys pending in the overlay (tests). */
    int pendingKeys() {
        return overlay.size();
    }

    private static StoreException refused(StoreException why) {
        return new StoreException("not replicated: " + why.getMessage(), why);
    }

    @Override
    public boolean isEphemeral() {
        return false;
    }

    /** Stops the batcher and fails what is pending; the inner store is closed by its owner. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (failure == null) {
                failure = new StoreException("cluster node closed");
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        fail(Long.MIN_VALUE, new StoreException("cluster node closed"));
        timer.shutdownNow();
        try {
            batcher.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
