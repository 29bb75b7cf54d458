package io.hikyaku.cluster;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Membership changes of the cluster's group (Ratis setConfiguration), from a node or from the CLI
 * ({@code hikyaku cluster --cluster CURRENT --set-members NEW}).
 */
public final class ClusterAdmin {

    private ClusterAdmin() {}

    static List<RaftPeer> raftPeers(List<ClusterConfig.Peer> peers) {
        return peers.stream().map(p -> RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build()).toList();
    }

    /**
     * Asks the group, reached through any of {@code current} (the members now), to make
     * {@code members} its members. Blocks until the new configuration is committed or
     * {@code timeout} passed; throws IOException naming why it failed.
     */
    public static void setMembers(List<ClusterConfig.Peer> current, List<ClusterConfig.Peer> members, Duration timeout)
            throws IOException {
        try (RaftClient client = client(current, timeout)) {
            setMembers(client, members, timeout);
        }
    }

    /**
     * Asks the leader, reached through any of {@code current}, to hand leadership to {@code nodeId}
     * (before a rolling restart stops the leader: writes pause for one election, not for a timeout).
     */
    public static void transferLeadership(List<ClusterConfig.Peer> current, String nodeId, Duration timeout)
            throws IOException {
        try (RaftClient client = client(current, timeout)) {
            RaftClientReply reply = client.admin().transferLeadership(
                    org.apache.ratis.protocol.RaftPeerId.valueOf(nodeId), timeout.toMillis());
            if (!reply.isSuccess()) {
                throw new IOException("leadership transfer to " + nodeId + " failed: "
                        + (reply.getException() != null ? reply.getException().getMessage() : reply));
            }
        }
    }

    private static RaftClient client(List<ClusterConfig.Peer> current, Duration timeout) {
        RaftGroup group = RaftGroup.valueOf(ClusterNode.GROUP_ID, raftPeers(current));
        var properties = RaftSettings.client();
        org.apache.ratis.client.RaftClientConfigKeys.Rpc.setRequestTimeout(properties,
                TimeDuration.valueOf(timeout.toMillis(), TimeUnit.MILLISECONDS));
        return RaftClient.newBuilder()
                .setRaftGroup(group)
                .setProperties(properties)
                .setParameters(new Parameters())
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        (int) Math.max(1, timeout.toMillis() / 500), TimeDuration.valueOf(500, TimeUnit.MILLISECONDS)))
                .build();
    }

    static void setMembers(RaftClient client, List<ClusterConfig.Peer> members, Duration timeout) throws IOException {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("the new members are empty");
        }
        RaftClientReply reply = client.admin().setConfiguration(raftPeers(members));
        if (!reply.isSuccess()) {
            throw new IOException("changing the members to " + members + " failed: "
                    + (reply.getException() != null ? reply.getException().getMessage() : reply));
        }
    }
}
