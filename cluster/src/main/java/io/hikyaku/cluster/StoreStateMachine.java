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
 * entry's batches. At start it is reported to Ratis as the latest "snapshot" (the state a disk-based
 * state machine already holds, without files), so Ratis replays exactly the entries after it. No
 * snapshot is ever taken, so the log is never purged (CLUSTER.md).
 */
final class StoreStateMachine extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(StoreStateMachine.class);

    private final ReplicatedStore store;
    /** The client id this node proposes under in this life: its entries are recognised at apply. */
    private final ClientId proposerId;
    private final Runnable onChange;
    private final Runnable onHalt;
    private volatile SnapshotInfo persisted;
    private volatile Function<byte[], CompletableFuture<byte[]>> forwardedHandler;

    StoreStateMachine(ReplicatedStore store, ClientId proposerId, Runnable onChange, Runnable onHalt) {
        this.store = store;
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
        long[] applied;
        try {
            applied = store.persistedApplied();
        } catch (StoreException e) {
            throw new IOException("cannot read the applied index from the store: " + e.getMessage(), e);
        }
        if (applied != null) {
            TermIndex ti = TermIndex.valueOf(applied[0], applied[1]);
            persisted = new AppliedState(ti);
            setLastAppliedTermIndex(ti);
            LOG.info("store holds the log up to index {} (term {}): Ratis replays from {}", ti.getIndex(), ti.getTerm(), ti.getIndex() + 1);
        }
    }

    /** The applied state the store held at start (no snapshot files: the store is the state). */
    @Override
    public SnapshotInfo getLatestSnapshot() {
        return persisted;
    }

    @Override
    public long takeSnapshot() {
        return RaftLog.INVALID_LOG_INDEX; // not yet (CLUSTER.md): the log is kept whole
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
