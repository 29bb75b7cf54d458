package io.hikyaku.cluster;

import io.hikyaku.engine.store.Store;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One member of a Hikyaku cluster: a Ratis server in the cluster's one Raft group, replicating the
 * store batches of the leader's engine to every member's own store. See CLUSTER.md.
 *
 * <p>How a server uses it: the engine runs over {@link #store()}. That store refuses writes until
 * {@link Store#resume()} returns true, which happens only while this node is the ready leader; the
 * server's store recovery (fence, resume, reload the engine from the store) is what makes a new
 * leader serve. When leadership is lost, pending and later writes fail, the engine is fenced, and
 * {@code resume()} stays false until this node leads again. Requests a follower receives go to the
 * leader with {@link #forwardToLeader}; the leader answers them with the handler given to
 * {@link #serveForwarded}.
 */
public final class ClusterNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    /** The cluster's one group: fixed, so that every node (and every restart) names the same group. */
    static final RaftGroupId GROUP_ID = RaftGroupId.valueOf(
            UUID.nameUUIDFromBytes("hikyaku-cluster-group-0".getBytes(StandardCharsets.UTF_8)));
    /** Replication that takes longer fails the writes (the store fences; it may still commit later). */
    static final long PROPOSAL_TIMEOUT_MS = 10_000;
    /** A forwarded request is retried (next peer, new leader) up to this many times, 100 ms apart. */
    static final int FORWARD_RETRIES = 200;

    private final ClusterConfig config;
    private final RaftGroup group;
    private final RaftPeerId selfId;
    private final ReplicatedStore store;
    private final StoreStateMachine stateMachine;
    private final RaftServer server;
    private final ClientId proposerId = ClientId.randomId();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final RaftClient forwarder;
    private final java.util.concurrent.ScheduledExecutorService watcher;
    private volatile String lastSeen = "";
    /** Watcher thread only: hands leadership on when a follower is stuck (a Ratis 3.3.0 bug). */
    private final StuckFollowerWatchdog watchdog = new StuckFollowerWatchdog();
    private volatile boolean closed;

    private final ReplicaDirectory replica;
    private final SwappableStore inner;

    private ClusterNode(ClusterConfig config, Path raftDir, ReplicaDirectory replica, RaftSettings.LogRetention retention)
            throws IOException {
        this.replica = replica;
        this.inner = new SwappableStore(replica.current());
        this.config = config;
        List<RaftPeer> peers = config.peers().stream()
                .map(p -> RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build())
                .toList();
        this.group = RaftGroup.valueOf(GROUP_ID, peers);
        this.selfId = RaftPeerId.valueOf(config.nodeId());
        // hikyaku.cluster.pipelineAt: a benchmark switch (CLUSTER.md "Group commit"), not configuration
        this.store = new ReplicatedStore(this.inner, PROPOSAL_TIMEOUT_MS,
                Integer.getInteger("hikyaku.cluster.pipelineAt", ReplicatedStore.MAX_BATCHES_PER_ENTRY));
        this.stateMachine = new StoreStateMachine(store, this.inner, replica, proposerId, this::changedSoon,
                this::haltAsync);
        Files.createDirectories(raftDir);
        boolean existing = Files.isDirectory(raftDir.resolve(GROUP_ID.getUuid().toString()).resolve("current"));
        ClusterConfig.Peer self = config.self();
        this.server = RaftServer.newBuilder()
                .setServerId(selfId)
                .setGroup(group)
                .setStateMachine(stateMachine)
                .setProperties(RaftSettings.server(raftDir, self.host(), self.port(), retention))
                // RECOVER keeps an existing log; FORMAT would wipe it, so only for a new directory
                .setOption(existing ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT)
                .build();
        this.forwarder = RaftClient.newBuilder()
                .setRaftGroup(group)
                .setProperties(RaftSettings.client())
                .setParameters(new Parameters())
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(FORWARD_RETRIES,
                        TimeDuration.valueOf(100, TimeUnit.MILLISECONDS)))
                .build();
        this.watcher = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hikyaku-cluster-watch-" + config.nodeId());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts this node's Ratis server for the cluster's one group, its storage under
     * {@code raftDir}, over the node's own store in {@code replica} (written by nobody else; a
     * snapshot from the leader may replace it; its owner closes it after this node).
     */
    public static ClusterNode start(ClusterConfig config, Path raftDir, ReplicaDirectory replica) throws IOException {
        return start(config, raftDir, replica, RaftSettings.LogRetention.defaults());
    }

    static ClusterNode start(ClusterConfig config, Path raftDir, ReplicaDirectory replica,
                             RaftSettings.LogRetention retention) throws IOException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(raftDir, "raftDir");
        Objects.requireNonNull(replica, "replica");
        ClusterNode node = new ClusterNode(config, raftDir, replica, retention);
        try {
            node.store.start(node::propose, node::isReadyLeader);
            node.server.start();
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        // Role changes without a Ratis event (a follower that lost its leader) are seen by polling.
        node.watcher.scheduleWithFixedDelay(node::changed, 200, 200, TimeUnit.MILLISECONDS);
        node.watcher.scheduleWithFixedDelay(node::watchFollowers, 1, 1, TimeUnit.SECONDS);
        LOG.info("cluster node {} started: Raft on {}, members {}", config.nodeId(), config.self().address(),
                config.peers().stream().map(p -> p.id() + "=" + p.address()).toList());
        return node;
    }

    /** The store the engine writes to: replicated, with the uncommitted overlay (see {@link ClusterNode}). */
    public Store store() {
        return store;
    }

    /** True while this node leads and its store holds every committed entry of earlier terms. */
    public boolean isReadyLeader() {
        DivisionInfo info = info();
        return info != null && info.isLeader() && info.isLeaderReady() && !store.halted();
    }

    /**
     * Called (on this node's watcher thread; must not block) whenever the role, the leader or
     * readiness changes: at once on a Ratis event, else within 200 ms (the role is polled).
     */
    public void onChange(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Sends {@code request} to the current leader's handler (a Ratis read-only query; Ratis finds the
     * leader and retries while there is none); completes with its reply, or exceptionally after
     * {@code timeout} or when the leader's handler failed. At least once: when a reply is lost on the
     * way back (a broken connection), the retry may reach the handler a second time.
     */
    public CompletableFuture<byte[]> forwardToLeader(byte[] request, Duration timeout) {
        CompletableFuture<RaftClientReply> sent;
        try {
            sent = forwarder.async().sendReadOnlyNonLinearizable(Message.valueOf(ByteString.copyFrom(request)));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return sent.thenApply(reply -> {
                    if (!reply.isSuccess()) {
                        throw new java.util.concurrent.CompletionException(reply.getException() != null
                                ? reply.getException() : new IOException("forwarded request failed: " + reply));
                    }
                    return reply.getMessage().getContent().toByteArray();
                })
                .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(e -> CompletableFuture.failedFuture(
                        e instanceof TimeoutException ? new TimeoutException("no answer from the cluster leader within " + timeout)
                                : e));
    }

    /** The handler run for requests forwarded to this node (only while it leads; elsewhere they fail). */
    public void serveForwarded(Function<byte[], CompletableFuture<byte[]>> handler) {
        stateMachine.serveForwarded(Objects.requireNonNull(handler, "handler"));
    }

    /**
     * Asks the current leader to hand leadership to {@code nodeId} (a rolling restart; and the way out
     * of a Ratis 3.3.0 bug where a leader stops sending the log to a follower whose disks were replaced:
     * a new leader starts from fresh follower state, CLUSTER.md). Blocks up to {@code timeout}; throws
     * IOException if the transfer failed.
     */
    public void transferLeadership(String nodeId, Duration timeout) throws IOException {
        RaftClientReply reply = forwarder.admin().transferLeadership(RaftPeerId.valueOf(nodeId), timeout.toMillis());
        if (!reply.isSuccess()) {
            throw new IOException("leadership transfer to " + nodeId + " failed: "
                    + (reply.getException() != null ? reply.getException().getMessage() : reply));
        }
    }

    /** Node id and, for the one group, its id, this node's role and the leader's node id (null if unknown). */
    public ClusterStatus status() {
        DivisionInfo info = info();
        ClusterStatus.Role role = ClusterStatus.Role.CANDIDATE;
        String leader = null;
        if (info != null) {
            RaftProtos.RaftPeerRole r = info.getCurrentRole();
            role = r == RaftProtos.RaftPeerRole.LEADER ? ClusterStatus.Role.LEADER
                    : r == RaftProtos.RaftPeerRole.FOLLOWER ? ClusterStatus.Role.FOLLOWER : ClusterStatus.Role.CANDIDATE;
            RaftPeerId id = info.getLeaderId();
            leader = id == null ? null : id.toString();
        }
        return new ClusterStatus(config.nodeId(), List.of(new ClusterStatus.Group(GROUP_ID.getUuid().toString(), role, leader)));
    }

    /** Entries applied and proposed, batches per entry (for metrics and benchmarks). */
    public ClusterStats stats() {
        return store.stats();
    }

    /** Ratis' own timers of this node (log flush and fsync, AppendEntries handling): diagnostics, metrics. */
    public List<RatisTimers.Reading> ratisTimers() {
        return RatisTimers.of(config.nodeId());
    }

    /**
     * The recent mean of one of Ratis' timers of this node, in milliseconds ({@link RatisTimers#meanMillis}):
     * e.g. {@code log_worker.syncTime} (the log's fsync), {@code server.follower_append_entry_latency}
     * (a follower's handling of AppendEntries, its flush included), {@code log_appender.*} (the leader's
     * AppendEntries round trips), {@code server.clientWriteRequest} (a proposal until its answer).
     */
    public double ratisMeanMillis(String timer) {
        return RatisTimers.meanMillis(config.nodeId(), timer);
    }

    /** Index of the last entry this node applied (tests, diagnostics). */
    public long appliedIndex() {
        DivisionInfo info = info();
        return info == null ? -1 : info.getLastAppliedIndex();
    }

    public ClusterConfig config() {
        return config;
    }

    /** The node's own store under the replication (tests compare replicas through it). */
    Store inner() {
        return inner.current();
    }

    /** Snapshots this node took, and snapshots from the leader it installed, since start. */
    public long snapshotsTaken() {
        return stateMachine.snapshotsTaken();
    }

    public long snapshotsInstalled() {
        return stateMachine.snapshotsInstalled();
    }

    /** The index of this node's latest snapshot, or -1 (the log before it may be purged). */
    public long snapshotIndex() {
        SnapshotStorage.Snapshot s = ((SnapshotStorage) stateMachine.getStateMachineStorage()).latest();
        return s == null ? -1 : s.termIndex().getIndex();
    }

    /**
     * Changes the group's members to {@code members} (Ratis setConfiguration through the leader): new
     * members first catch up (from the log, or from a snapshot when the log they need was purged),
     * then the new configuration is committed by a majority of old and new members both. Blocks until
     * it is committed or {@code timeout} passed.
     */
    public void setMembers(List<ClusterConfig.Peer> members, Duration timeout) throws IOException {
        ClusterAdmin.setMembers(forwarder, members, timeout);
    }

    /** The first index this node's Raft log still holds (entries before it were purged after a snapshot). */
    public long logStartIndex() {
        try {
            return server.getDivision(GROUP_ID).getRaftLog().getStartIndex();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The members of the group's committed configuration, as this node knows it. */
    public List<String> members() {
        try {
            return server.getDivision(GROUP_ID).getRaftConf().getCurrentPeers().stream()
                    .map(p -> p.getId() + "=" + p.getAddress()).sorted().toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private DivisionInfo info() {
        try {
            return server.getDivision(GROUP_ID).getInfo();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Submits one entry in-process to this node's Ratis server (no network hop: only the leader proposes). */
    private CompletableFuture<?> propose(long callId, byte[] entry) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(proposerId)
                .setServerId(selfId)
                .setGroupId(GROUP_ID)
                .setCallId(callId)
                .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(entry))) // never changed after encoding: no copy
                .setType(RaftClientRequest.writeRequestType())
                .build();
        CompletableFuture<RaftClientReply> submitted;
        try {
            submitted = server.submitClientRequestAsync(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        return submitted.thenApply(reply -> {
            if (!reply.isSuccess()) {
                throw new java.util.concurrent.CompletionException(reply.getException() != null
                        ? reply.getException() : new IOException("proposal failed: " + reply));
            }
            return reply;
        });
    }

    /**
     * A Ratis event (called under Ratis' own locks): the listeners run on the watcher thread instead,
     * so that nothing they do can hold up or deadlock the Raft server.
     */
    private void changedSoon() {
        try {
            watcher.execute(this::changed);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // closing: nobody listens any more
        }
    }

    /** Tells the listeners when what they can see changed (role, leader, readiness). */
    private void changed() {
        if (closed) {
            return;
        }
        ClusterStatus.Group g = status().groups().get(0);
        String seen = g.role() + "/" + g.leader() + "/" + isReadyLeader();
        if (g.role() != ClusterStatus.Role.LEADER) {
            store.leadershipLost("role " + g.role());
        }
        if (seen.equals(lastSeen)) {
            return;
        }
        lastSeen = seen;
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                LOG.warn("cluster change listener failed", e);
            }
        }
    }

    /**
     * On the leader, once a second: a follower that answers but whose match index stays behind (the
     * Ratis 3.3.0 bug in {@link StuckFollowerWatchdog}) makes this node hand leadership to another
     * follower, on a thread of its own (the transfer blocks for up to 10 s).
     */
    private void watchFollowers() {
        if (closed) {
            return;
        }
        try {
            DivisionInfo info = info();
            if (info == null || !info.isLeader()) {
                watchdog.reset();
                return;
            }
            List<RaftProtos.ServerRpcProto> rpcs = info.getRoleInfoProto().getLeaderInfo().getFollowerInfoList();
            long[] match = info.getFollowerMatchIndices();
            if (match == null || match.length != rpcs.size()) {
                return;
            }
            List<StuckFollowerWatchdog.Follower> followers = new java.util.ArrayList<>();
            for (int i = 0; i < match.length; i++) {
                followers.add(new StuckFollowerWatchdog.Follower(rpcs.get(i).getId().getId().toStringUtf8(),
                        match[i], rpcs.get(i).getLastRpcElapsedTimeMs()));
            }
            watchdog.round(System.currentTimeMillis(), info.getLastAppliedIndex(), logStartIndex(), followers).ifPresent(target -> {
                LOG.warn("a follower answers but does not receive the log (match indices {}, applied {}): "
                        + "handing leadership to {} (Ratis 3.3.0 bug, cluster/CLUSTER.md)", followers, info.getLastAppliedIndex(), target);
                Thread t = new Thread(() -> {
                    try {
                        transferLeadership(target, Duration.ofSeconds(10));
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("leadership transfer to {} failed: {}", target, e.toString());
                    }
                }, "hikyaku-cluster-transfer");
                t.setDaemon(true);
                t.start();
            });
        } catch (RuntimeException e) {
            LOG.warn("watching the followers failed", e);
        }
    }

    /** After an apply failure: this node leaves the group's work (a restart replays from its last good entry). */
    private void haltAsync() {
        Thread t = new Thread(() -> {
            try {
                server.close();
            } catch (IOException | RuntimeException e) {
                LOG.warn("closing the Raft server after an apply failure failed", e);
            }
            changed();
        }, "hikyaku-cluster-halt");
        t.setDaemon(true);
        t.start();
    }

    /** Stops replication and the Ratis server; the inner store is left open (its owner closes it). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        watcher.shutdownNow();
        store.close();
        long start = System.nanoTime();
        try {
            server.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("closing the Raft server failed", e);
        }
        long serverClosed = System.nanoTime();
        try {
            forwarder.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("closing the forwarding client failed", e);
        }
        LOG.info("cluster node {} closed (Raft server {} ms, forwarding client {} ms)", config.nodeId(),
                TimeUnit.NANOSECONDS.toMillis(serverClosed - start), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - serverClosed));
    }
}
