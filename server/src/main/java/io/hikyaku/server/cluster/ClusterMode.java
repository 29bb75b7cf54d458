package io.hikyaku.server.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.SqsService;
import io.hikyaku.cluster.ClusterConfig;
import io.hikyaku.cluster.ClusterNode;
import io.hikyaku.cluster.ClusterStatus;
import io.hikyaku.cluster.ReplicaDirectory;
import io.hikyaku.cluster.ReplicationStages;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.storage.OpenedStore;
import io.hikyaku.server.storage.StoreHealth;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server running as a node of a replicated cluster ({@code --cluster}): its RocksDB store is written
 * only through the Raft group ({@link ClusterNode#store()}: a write completes once a majority has it),
 * and only the ready leader runs the engine. The service over that store is fenced at start and again
 * whenever this node stops being the ready leader; its recovery then waits until the store resumes
 * (which it does only on the ready leader) and reloads the engine from the store. Every other node
 * forwards API requests to the leader ({@link ClusterRouting}).
 *
 * <p>The node's RocksDB is opened without fsync (durability none): the Raft log is the durable record,
 * and a restarted node replays what its store lacks. Raft keeps its log and snapshots in
 * {@code <data dir>/raft}, the store lives in {@code <data dir>/replica} ({@link ReplicaDirectory}: a
 * snapshot from the leader may replace it as a whole).
 */
public final class ClusterMode implements AutoCloseable, ClusterRouting.Leader {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterMode.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String NOT_LEADER = "fenced: this node is not the cluster's ready leader (requests are forwarded to the leader)";
    /** How often the fence is checked besides the node's change notices (a notice missed costs at most this). */
    private static final long CHECK_MILLIS = 100;

    private final ClusterSettings settings;
    private final ReplicaDirectory replica;
    private final ClusterNode node;
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hikyaku-cluster-fence");
        t.setDaemon(true);
        return t;
    });
    private volatile SqsService service;
    private volatile boolean wasReadyLeader;
    /** Times this node became or stopped being the ready leader (LeaderServices restarts on any change). */
    private final java.util.concurrent.atomic.AtomicLong readyLeaderChanges = new java.util.concurrent.atomic.AtomicLong();
    private ClusterRouting routing;

    private ClusterMode(ClusterSettings settings, ReplicaDirectory replica, ClusterNode node) {
        this.settings = settings;
        this.replica = replica;
        this.node = node;
    }

    /**
     * Checks the settings against the rest of the configuration (before anything is opened).
     *
     * @throws ConfigException naming what cluster mode cannot do with this configuration
     */
    public static void check(ServerConfig config, ClusterSettings settings) {
        settings.validate(config.storage());
        if (!config.queues().isEmpty()) {
            throw new ConfigException("the config file's queues are not created in cluster mode yet: create them "
                    + "with CreateQueue through any node (docs/operations.md \"Cluster\")");
        }
        if (!config.push().functions().isEmpty() || !config.push().mappings().isEmpty()) {
            throw new ConfigException("functions and event source mappings (push delivery) are not available in cluster "
                    + "mode yet: their state is kept on one node and not replicated (docs/operations.md \"Cluster\")");
        }
        if (config.journal() != null) {
            throw new ConfigException("--journal is not available in cluster mode yet (the Raft log is the record of commands)");
        }
    }

    /** Opens the node's store and starts its Raft server (it joins its peers in the background). */
    public static ClusterMode start(ServerConfig config, ClusterSettings settings) {
        check(config, settings);
        Path dataDir = config.dataDir();
        // a store of the first slice (in the data directory itself) moves into the replica once
        ReplicaDirectory replica = ReplicaDirectory.open(dataDir.resolve("replica"), dataDir);
        try {
            ClusterNode node = ClusterNode.start(ClusterConfig.parse(settings.nodeId(), settings.peers()),
                    dataDir.resolve("raft"), replica);
            LOG.info("Cluster node {} of {}: Raft storage in {}", settings.nodeId(), settings.peers(), dataDir.resolve("raft"));
            return new ClusterMode(settings, replica, node);
        } catch (IOException | RuntimeException e) {
            replica.close();
            if (e instanceof IllegalArgumentException bad) {
                throw new ConfigException("--cluster: " + bad.getMessage(), bad);
            }
            throw new IllegalStateException("cannot start cluster node " + settings.nodeId() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The store the service is built over: writes go through Raft; backups are checkpoints of this
     * node's copy. The RocksDB meters read the store open at start (after a snapshot install replaced
     * it, they read nothing until a restart).
     */
    public OpenedStore openedStore() {
        return new OpenedStore(new StoreHealth(node.store()), replica::checkpoint, replica.current());
    }

    /**
     * Fences {@code service} now and whenever this node is not the ready leader: only the ready
     * leader's engine acts (its state is then exactly the committed log).
     */
    public void govern(SqsService service) {
        this.service = service;
        service.fence(NOT_LEADER);
        node.onChange(this::check); // on a Ratis thread: fencing only sets a field and wakes the recovery
        watcher.scheduleWithFixedDelay(this::check, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void check() {
        try {
            boolean ready = node.isReadyLeader();
            if (ready != wasReadyLeader) {
                wasReadyLeader = ready;
                readyLeaderChanges.incrementAndGet();
                LOG.info("Cluster node {} {}", settings.nodeId(), ready
                        ? "is the ready leader: the engine is reloaded from the store and serves"
                        : "is not the ready leader: requests are forwarded to the leader");
            }
            if (!ready && service != null) {
                service.fence(NOT_LEADER);
            }
        } catch (RuntimeException e) {
            LOG.warn("Checking the cluster role failed", e);
        }
    }

    /** Routing of API requests for the dispatcher (and the leader's side of forwarding). */
    public synchronized ClusterRouting routing(Predicate<HttpRequestData> cloudWatchAccepts, int maxBodyBytes) {
        if (routing == null) {
            routing = new ClusterRouting(this, cloudWatchAccepts, maxBodyBytes);
            node.serveForwarded(routing::serveForwarded);
        }
        return routing;
    }

    @Override
    public boolean isReadyLeader() {
        return node.isReadyLeader();
    }

    /** How often this node's ready-leader role changed (seen by the fence's checks). */
    long readyLeaderChanges() {
        return readyLeaderChanges.get();
    }

    /** The replicated store itself: the services' logs write through it (LeaderServices). */
    io.hikyaku.engine.store.Store replicatedStore() {
        return node.store();
    }

    @Override
    public CompletableFuture<byte[]> forward(byte[] request, Duration timeout) {
        return node.forwardToLeader(request, timeout);
    }

    @Override
    public ObjectNode health() {
        ClusterStatus status = node.status();
        ObjectNode out = JSON.createObjectNode().put("nodeId", status.nodeId());
        ArrayNode groups = out.putArray("groups");
        for (ClusterStatus.Group g : status.groups()) {
            groups.addObject().put("id", g.id()).put("role", g.role().name()).put("leader", g.leader())
                    .put("appliedIndex", node.appliedIndex()) // how far this node's store is (catching up after a restart)
                    .put("snapshotIndex", node.snapshotIndex()).put("logStartIndex", node.logStartIndex());
        }
        return out;
    }

    /** Cluster meters: entries committed, commands (store batches) per entry, this node's role. */
    public void bindMetrics(MeterRegistry registry) {
        FunctionCounter.builder("hikyaku.cluster.entries.committed", node, n -> n.stats().entriesApplied())
                .description("Committed Raft log entries this node has applied to its store").register(registry);
        FunctionCounter.builder("hikyaku.cluster.batches.committed", node, n -> n.stats().batchesApplied())
                .description("Store batches those entries carried (several share an entry under load)").register(registry);
        FunctionCounter.builder("hikyaku.cluster.entries.proposed", node, n -> n.stats().entriesProposed())
                .description("Raft log entries this node proposed as leader").register(registry);
        Gauge.builder("hikyaku.cluster.batches.per.entry", node, n -> n.stats().batchesPerEntry())
                .description("Store batches per entry this node proposed, on average (group commit)").register(registry);
        Gauge.builder("hikyaku.cluster.batches.per.entry.max", node, n -> n.stats().maxBatchesPerEntry())
                .description("The most store batches one proposed entry carried").register(registry);
        // Where a replicated write spends its time (cluster/CLUSTER.md "Where the time goes"): per stage
        // a count and total (mean = sum / count) and the longest.
        for (ReplicationStages.Stage stage : ReplicationStages.Stage.values()) {
            int i = stage.ordinal();
            FunctionTimer.builder("hikyaku.cluster.stage", node, n -> n.stats().stages().get(i).count(),
                            n -> n.stats().stages().get(i).totalNanos(), TimeUnit.NANOSECONDS)
                    .tag("stage", stage.label())
                    .description("Time of one replicated write's stage: queued, submit, commit, apply, answer, write")
                    .register(registry);
            Gauge.builder("hikyaku.cluster.stage.max.seconds", node, n -> n.stats().stages().get(i).maxNanos() / 1e9)
                    .tag("stage", stage.label())
                    .description("The longest pass through this stage since start").register(registry);
        }
        // Ratis' own stages (recent means): the log's fsync, a follower's AppendEntries handling, the
        // leader's AppendEntries round trips, a proposal until Ratis answered it.
        for (String[] t : new String[][] {{"log_sync", "log_worker.syncTime"}, {"log_flush", "log_worker.flushTime"},
                {"follower_append", "server.follower_append_entry_latency"}, {"leader_append_rtt", "log_appender.*"},
                {"client_write", "server.clientWriteRequest"}}) {
            Gauge.builder("hikyaku.cluster.ratis.mean.seconds", node, n -> n.ratisMeanMillis(t[1]) / 1000)
                    .tag("timer", t[0])
                    .description("Recent mean of one of Ratis' timers of this node (Ratis' sample of recent durations)")
                    .register(registry);
        }
        Gauge.builder("hikyaku.cluster.role", this, m -> roleValue(m.node.status()))
                .description("This node's role: 2 leader, 1 candidate, 0 follower").register(registry);
        Gauge.builder("hikyaku.cluster.ready.leader", this, m -> m.node.isReadyLeader() ? 1 : 0)
                .description("1 while this node is the ready leader (its engine serves)").register(registry);
        Gauge.builder("hikyaku.cluster.forwards.in.flight", this, m -> m.routing == null ? 0 : m.routing.forwardsInFlight())
                .description("Requests this node forwards to the leader right now").register(registry);
    }

    private static double roleValue(ClusterStatus status) {
        if (status.groups().isEmpty()) {
            return 0;
        }
        return switch (status.groups().get(0).role().name()) {
            case "LEADER" -> 2;
            case "CANDIDATE" -> 1;
            default -> 0;
        };
    }

    public String nodeId() {
        return settings.nodeId();
    }

    /** After the service closed (its store with it): stops the Raft server, then closes this node's RocksDB. */
    @Override
    public void close() {
        watcher.shutdownNow();
        if (routing != null) {
            routing.close();
        }
        try {
            node.close();
        } catch (RuntimeException e) {
            LOG.warn("Stopping the Raft server failed", e);
        }
        replica.close();
    }
}
