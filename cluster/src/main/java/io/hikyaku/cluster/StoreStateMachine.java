package io.hikyaku.cluster;

import io.hikyaku.engine.store.StoreException;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The Ratis state machine of the cluster's group: applies committed entries (packed store batches)
 * to the node's store through {@link ReplicatedStore#apply}, and answers forwarded requests
 * ({@link #query}) with the handler this node serves while it leads.
 *
 * <p>The applied (term, index) lives in the store itself, written in the same atomic batch as each
 * entry's batches; Ratis replays the entries after it at start. Every {@code snapshotEvery} applied
 * entries Ratis asks for a snapshot ({@link #takeSnapshot}): a RocksDB checkpoint of the store in
 * {@link SnapshotStorage}; Ratis then purges the log up to it. A follower that needs purged entries
 * receives the leader's snapshot and replaces its whole store with it ({@link #reinitialize}). With no
 * snapshot yet, the store's applied state is reported as a snapshot without files (CLUSTER.md).
 */
final class StoreStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(StoreStateMachine.class);

    private final ReplicatedStore store;
    private final SwappableStore inner;
    private final ReplicaDirectory replica;
    private final SnapshotStorage snapshots = new SnapshotStorage();
    /** The client id this node proposes under in this life: its entries are recognised at apply. */
    private final ClientId proposerId;
    private final Runnable onChange;
    private final Runnable onHalt;
    private volatile SnapshotInfo persisted;
    private final java.util.concurrent.atomic.AtomicLong snapshotsTaken = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong snapshotsInstalled = new java.util.concurrent.atomic.AtomicLong();
    private volatile Function<byte[], CompletableFuture<byte[]>> forwardedHandler;

    StoreStateMachine(ReplicatedStore store, SwappableStore inner, ReplicaDirectory replica, ClientId proposerId,
                      Runnable onChange, Runnable onHalt) {
        this.store = store;
        this.inner = inner;
        this.replica = replica;
        this.proposerId = proposerId;
        this.onChange = onChange;
        this.onHalt = onHalt;
    }

    void serveForwarded(Function<byte[], CompletableFuture<byte[]>> handler) {
        this.forwardedHandler = handler;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
        super.initialize(server, groupId, storage);
        snapshots.init(storage);
        long[] applied = readApplied();
        SnapshotStorage.Snapshot snapshot = snapshots.latest();
        if (snapshot != null && (applied == null || applied[1] < snapshot.termIndex().getIndex())) {
            // the store is behind its own latest snapshot: a crash between an installed snapshot and the
            // store's replacement (or a store rolled back): the log after the snapshot starts there
            LOG.info("store holds index {} but the latest snapshot is {}: the store is replaced by the snapshot",
                    applied == null ? "none" : applied[1], snapshot.termIndex());
            replaceStore(snapshot);
            applied = readApplied();
        }
        if (applied != null) {
            TermIndex ti = TermIndex.valueOf(applied[0], applied[1]);
            persisted = new AppliedState(ti);
            setLastAppliedTermIndex(ti);
            LOG.info("store holds the log up to index {} (term {}), latest snapshot {}: Ratis replays from {}",
                    ti.getIndex(), ti.getTerm(), snapshot == null ? "none" : snapshot.termIndex(), ti.getIndex() + 1);
        }
        getLifeCycle().transition(LifeCycle.State.STARTING);
        getLifeCycle().transition(LifeCycle.State.RUNNING);
    }

    private long[] readApplied() throws IOException {
        try {
            return store.persistedApplied();
        } catch (StoreException e) {
            throw new IOException("cannot read the applied index from the store: " + e.getMessage(), e);
        }
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return snapshots;
    }

    /**
     * The latest snapshot with its files (what the leader sends a follower that needs purged entries);
     * before the first one, the applied state the store held at start, without files.
     */
    @Override
    public SnapshotInfo getLatestSnapshot() {
        SnapshotInfo real = snapshots.getLatestSnapshot();
        return real != null ? real : persisted;
    }

    /**
     * Ratis' state machine updater calls this (every {@code snapshotEvery} applied entries) on the
     * thread that applies, so the store holds exactly the entries up to the last applied index. That
     * index is written to the store (entries Ratis applies itself, such as configuration changes,
     * advance it without a store write), then the store is checkpointed. A checkpoint flushes the
     * memtables, so the live store's table files hold everything up to the index too: the log may be
     * purged up to it (CLUSTER.md "Snapshots").
     */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0 || store.halted()) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        long start = System.nanoTime();
        try {
            store.recordApplied(last.getTerm(), last.getIndex());
            snapshots.take(last, replica::checkpoint);
        } catch (StoreException e) {
            throw new IOException("snapshot at " + last + " failed: " + e.getMessage(), e);
        }
        snapshotsTaken.incrementAndGet();
        LOG.info("snapshot at index {} (term {}) taken in {} ms", last.getIndex(), last.getTerm(),
                (System.nanoTime() - start) / 1_000_000);
        return last.getIndex();
    }

    /** Called by Ratis before it moves a received snapshot into place (then {@link #reinitialize}). */
    @Override
    public void pause() {
        store.leadershipLost("installing a snapshot from the leader");
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /**
     * A snapshot from the leader is in place: the whole store is replaced by it and applying goes on
     * after its index. Fail-stop if the store cannot be replaced (the node then holds neither).
     */
    @Override
    public void reinitialize() throws IOException {
        SnapshotStorage.Snapshot snapshot = snapshots.refresh();
        if (snapshot == null) {
            throw new IOException("reinitialize without an installed snapshot in " + snapshots.getSnapshotDir());
        }
        replaceStore(snapshot);
        setLastAppliedTermIndex(snapshot.termIndex());
        persisted = new AppliedState(snapshot.termIndex());
        snapshotsInstalled.incrementAndGet();
        getLifeCycle().transition(LifeCycle.State.STARTING);
        getLifeCycle().transition(LifeCycle.State.RUNNING);
        LOG.info("store replaced by the leader's snapshot at index {} (term {})", snapshot.termIndex().getIndex(),
                snapshot.termIndex().getTerm());
    }

    /** Replaces the node's store by {@code snapshot}'s checkpoint; its applied index is the snapshot's. */
    private void replaceStore(SnapshotStorage.Snapshot snapshot) throws IOException {
        IOException[] failed = new IOException[1];
        inner.swap(() -> {
            try {
                return replica.replaceWith(snapshot.dir());
            } catch (IOException e) {
                failed[0] = e;
                return replica.current(); // the old store when the copy failed; a closed one if the open failed
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        store.recordApplied(snapshot.termIndex().getTerm(), snapshot.termIndex().getIndex());
    }

    long snapshotsTaken() {
        return snapshotsTaken.get();
    }

    long snapshotsInstalled() {
        return snapshotsInstalled.get();
    }

    /**
     * Never throws: a failure to apply is fail-stop (nothing after this entry may be applied, and the
     * store keeps the applied index of the last good entry, so a restart replays from there).
     */
    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        RaftProtos.LogEntryProto entry = trx.getLogEntry();
        TermIndex ti = TermIndex.valueOf(entry);
        TermIndex last = getLastAppliedTermIndex();
        if (last != null && ti.getIndex() <= last.getIndex()) {
            // replayed below what the store holds: never apply twice (SingleDelete forbids it)
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        if (store.halted()) {
            return CompletableFuture.failedFuture(new StateMachineException("replication halted on this node"));
        }
        RaftProtos.StateMachineLogEntryProto sm = entry.getStateMachineLogEntry();
        long ownCallId = ClientId.valueOf(sm.getClientId()).equals(proposerId) ? sm.getCallId() : -1;
        try {
            store.apply(ti.getTerm(), ti.getIndex(), ownCallId, sm.getLogData().asReadOnlyByteBuffer());
        } catch (RuntimeException e) {
            LOG.error("applying log entry {} failed: this node stops replicating (fail-stop); restart it once the cause"
                    + " is fixed, it replays from its last applied entry", ti, e);
            store.halt(new StoreException("applying log entry " + ti + " failed: " + e.getMessage(), e));
            onHalt.run();
            return CompletableFuture.failedFuture(new StateMachineException("apply failed at " + ti + ": " + e));
        }
        updateLastAppliedTermIndex(ti);
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    /**
     * An entry Ratis applies itself (a configuration change, a leader's first entry). At a restart the
     * store may hold more than the latest snapshot, and Ratis replays from the snapshot: such entries
     * at or below the store's applied index were applied already and must not move it back.
     */
    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || index > last.getIndex()) {
            super.notifyTermIndexUpdated(term, index);
        }
    }

    /** A request forwarded from another node: handled here while this node leads. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        Function<byte[], CompletableFuture<byte[]>> handler = forwardedHandler;
        if (handler == null) {
            return CompletableFuture.failedFuture(new StateMachineException("this node serves no forwarded requests"));
        }
        CompletableFuture<byte[]> answer;
        try {
            answer = handler.apply(request.getContent().toByteArray());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(new StateMachineException("forwarded request failed: " + e));
        }
        return answer.thenApply(bytes -> Message.valueOf(ByteString.copyFrom(bytes)));
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        if (!groupMemberId.getPeerId().equals(newLeaderId)) {
            store.leadershipLost("the leader is now " + newLeaderId);
        }
        onChange.run();
    }

    @Override
    public void notifyNotLeader(Collection<TransactionContext> pendingEntries) {
        store.leadershipLost("stepped down");
        onChange.run();
    }

    @Override
    public void notifyLeaderReady() {
        onChange.run();
    }

    /** The store's applied state at start, as Ratis' latest snapshot (no files). */
    private record AppliedState(TermIndex termIndex) implements SnapshotInfo {
        @Override
        public TermIndex getTermIndex() {
            return termIndex;
        }

        @Override
        public List<FileInfo> getFiles() {
            return List.of();
        }
    }
}
