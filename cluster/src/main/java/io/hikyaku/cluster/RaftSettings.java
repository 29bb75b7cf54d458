package io.hikyaku.cluster;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Every Ratis setting Hikyaku relies on, set explicitly (docs and code defaults of Ratis differ in
 * places: raft-cluster.md §1.11 item 8). Starting values from raft-cluster.md §4.8.
 */
final class RaftSettings {

    /** Election timeouts: GC headroom on small shared machines (Ratis defaults 150/300 ms). */
    static final long RPC_TIMEOUT_MIN_MS = 500;
    static final long RPC_TIMEOUT_MAX_MS = 1000;
    /** One entry (and one AppendEntries payload) at most; the store packs entries to 2 MiB. */
    static final SizeInBytes APPENDER_BUFFER_BYTE_LIMIT = SizeInBytes.valueOf("4MB");
    /** Must exceed the appender buffer limit + 8, or the server refuses to start. */
    static final SizeInBytes LOG_WRITE_BUFFER_SIZE = SizeInBytes.valueOf("8MB");
    /** gRPC frames: a 4 MB AppendEntries, a forwarded request up to a few MB, with room to spare. */
    static final SizeInBytes GRPC_MESSAGE_SIZE_MAX = SizeInBytes.valueOf("16MB");
    /** Per gRPC stream: room for the largest AppendEntries (4 MB) twice, so replication never waits on a window update. */
    static final SizeInBytes GRPC_FLOW_CONTROL_WINDOW = SizeInBytes.valueOf("8MB");
    /** Forwarded requests include long polls (up to 20 s wait plus handling). */
    static final TimeDuration FORWARD_REQUEST_TIMEOUT = TimeDuration.valueOf(30, TimeUnit.SECONDS);

    /**
     * How often a snapshot is taken (every {@code snapshotEvery} applied entries; then the log is purged
     * up to it) and the log's segment size (purge removes whole closed segments).
     */
    record LogRetention(long snapshotEvery, SizeInBytes segmentSize) {
        /**
         * 4,096 entries and 32 MB segments; the system properties {@code hikyaku.cluster.snapshotEvery} and
         * {@code hikyaku.cluster.logSegmentSize} change them (tests make them small).
         */
        static LogRetention defaults() {
            return new LogRetention(Long.getLong("hikyaku.cluster.snapshotEvery", 4096),
                    SizeInBytes.valueOf(System.getProperty("hikyaku.cluster.logSegmentSize", "32MB")));
        }
    }
    /** Snapshot files travel in chunks of this size (under the gRPC message limit, with room). */
    static final SizeInBytes SNAPSHOT_CHUNK_SIZE = SizeInBytes.valueOf("4MB");

    private RaftSettings() {}

    /** Server properties for the node listening on {@code port}, its Raft storage in {@code raftDir}. */
    static RaftProperties server(Path raftDir, String host, int port, LogRetention retention) {
        long snapshotEvery = retention.snapshotEvery();
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(p, host);
        GrpcConfigKeys.Server.setPort(p, port);
        GrpcConfigKeys.setMessageSizeMax(p, GRPC_MESSAGE_SIZE_MAX);
        // gRPC flow control: the default 1 MB window would stall a 2 MiB entry for a window update
        // (a round trip) on the way to each follower; the window holds the largest entry with room.
        GrpcConfigKeys.setFlowControlWindow(p, GRPC_FLOW_CONTROL_WINDOW);
        GrpcConfigKeys.Server.setLeaderOutstandingAppendsMax(p, 8);
        // Ratis' default, set explicitly. Not the cause of the stuck-follower bug (CLUSTER.md): that was
        // seen with the separate heartbeat channel on and off.
        GrpcConfigKeys.Server.setHeartbeatChannel(p, true);
        RaftServerConfigKeys.setStorageDir(p, List.of(raftDir.toFile()));

        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(RPC_TIMEOUT_MIN_MS, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(RPC_TIMEOUT_MAX_MS, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, TimeDuration.valueOf(RPC_TIMEOUT_MIN_MS, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, TimeDuration.valueOf(RPC_TIMEOUT_MAX_MS, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(3, TimeUnit.SECONDS));
        RaftServerConfigKeys.LeaderElection.setPreVote(p, true);

        // Reads: linearizable ReadIndex with a leader lease (the code default of the lease is off).
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(p, true);
        RaftServerConfigKeys.Read.setTimeout(p, FORWARD_REQUEST_TIMEOUT);

        // The log is the durable record: fsynced, never unsafe, async flush off until tested.
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, retention.segmentSize());
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf("4MB"));
        RaftServerConfigKeys.Log.setForceSyncNum(p, 128);
        RaftServerConfigKeys.Log.setAsyncFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setWriteBufferSize(p, LOG_WRITE_BUFFER_SIZE);
        RaftServerConfigKeys.Log.setCorruptionPolicy(p, RaftServerConfigKeys.Log.CorruptionPolicy.EXCEPTION);
        // The log worker's task queue (Ratis' defaults, explicit): appends beyond it wait.
        RaftServerConfigKeys.Log.setQueueElementLimit(p, 4096);
        RaftServerConfigKeys.Log.setQueueByteLimit(p, SizeInBytes.valueOf("64MB"));
        // Log metadata: after each advance of the commit index the leader appends (and replicates, and
        // every node writes and fsyncs) one more entry holding that index, so that a restarted node knows
        // its commit index from its own log. Hikyaku does not need it: the store holds the applied index,
        // and a restarted node learns the commit index from the leader (plain Raft). Off, it saves one
        // log entry, its AppendEntries and its share of a flush per committed entry (CLUSTER.md).
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, Boolean.parseBoolean(
                System.getProperty("hikyaku.cluster.logMetadata", "false"))); // a benchmark switch, not configuration
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, APPENDER_BUFFER_BYTE_LIMIT);
        RaftServerConfigKeys.Log.Appender.setBufferElementLimit(p, 0);
        RaftServerConfigKeys.Log.Appender.setWaitTimeMin(p, TimeDuration.valueOf(0, TimeUnit.MILLISECONDS));
        // A follower that needs purged entries receives the leader's latest snapshot, file by file.
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, true);
        RaftServerConfigKeys.Log.Appender.setSnapshotChunkSizeMax(p, SNAPSHOT_CHUNK_SIZE);
        RaftServerConfigKeys.Write.setElementLimit(p, 4096);
        RaftServerConfigKeys.Write.setByteLimit(p, SizeInBytes.valueOf("64MB"));

        // Retries within the cache's life are answered from it, never applied twice (RATIS-1873).
        RaftServerConfigKeys.RetryCache.setExpiryTime(p, TimeDuration.valueOf(5, TimeUnit.MINUTES));

        // Snapshots (CLUSTER.md "Snapshots"): a RocksDB checkpoint every {@code snapshotEvery} applied
        // entries; the log is then purged up to it even if a follower still needs older entries (that
        // follower installs the snapshot instead), so a node that is down does not keep the log growing.
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, snapshotEvery);
        RaftServerConfigKeys.Snapshot.setCreationGap(p, Math.min(snapshotEvery, 1024));
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Snapshot.setTriggerWhenStopEnabled(p, false);
        RaftServerConfigKeys.Snapshot.setTriggerWhenRemoveEnabled(p, false);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(snapshotEvery, 1024));
        RaftServerConfigKeys.Log.setPurgePreservationLogNum(p, 0);
        return p;
    }

    /** Client properties for forwarding requests to the leader (read-only queries, long polls included). */
    static RaftProperties client() {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        GrpcConfigKeys.setMessageSizeMax(p, GRPC_MESSAGE_SIZE_MAX);
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, FORWARD_REQUEST_TIMEOUT);
        RaftClientConfigKeys.Async.setOutstandingRequestsMax(p, 1000);
        return p;
    }

    static List<File> storage(Path raftDir) {
        return List.of(raftDir.toFile());
    }
}
