package io.hikyaku.cluster;

import java.util.List;

/** What /health shows of the cluster: this node's id and, per Raft group, its role and the leader. */
public record ClusterStatus(String nodeId, List<Group> groups) {

    public ClusterStatus {
        groups = List.copyOf(groups);
    }

    /** One Raft group: its id, this node's role in it, and the leader's node id (null if unknown). */
    public record Group(String id, Role role, String leader) {}

    /** This node's role in a group. */
    public enum Role { LEADER, FOLLOWER, CANDIDATE }
}
