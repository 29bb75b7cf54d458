package io.hikyaku.server.cluster;

import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cluster mode's settings from one source; null: not given there. Sources are layered one setting at a
 * time ({@link #over}): config file &lt; environment &lt; flags.
 *
 * <pre>
 *   flag                       config file                                          environment
 *   --node-id ID               cluster: {nodeId: ID}                                HIKYAKU_NODE_ID
 *   --cluster ID=HOST:PORT,..  cluster: {peers: [{id: ID, address: "HOST:PORT"}]}    HIKYAKU_CLUSTER
 * </pre>
 *
 * @param nodeId this node's id among the peers
 * @param peers  every member's Raft address, {@code n1=127.0.0.1:9601,n2=...}
 */
public record ClusterSettings(String nodeId, String peers) {

    public static final ClusterSettings NONE = new ClusterSettings(null, null);
    /** Members at most: Raft beyond 7 voters only adds latency. */
    public static final int MAX_PEERS = 7;
    private static final Set<String> FILE_KEYS = Set.of("nodeId", "peers");
    private static final Set<String> PEER_KEYS = Set.of("id", "address");

    /** The environment's settings. */
    public static ClusterSettings fromEnvironment(Map<String, String> env) {
        return new ClusterSettings(blankIsNull(env.get("HIKYAKU_NODE_ID")), blankIsNull(env.get("HIKYAKU_CLUSTER")));
    }

    /** The config file's top-level {@code cluster} section (null: none). */
    public static ClusterSettings fromFile(String source, Object section) {
        if (section == null) {
            return NONE;
        }
        if (!(section instanceof Map<?, ?> map)) {
            throw new ConfigException(source + ": must be a mapping with nodeId and peers");
        }
        for (Object key : map.keySet()) {
            if (!FILE_KEYS.contains(String.valueOf(key))) {
                throw new ConfigException(source + ": unknown key '" + key + "' (expected one of [nodeId, peers])");
            }
        }
        Object nodeId = map.get("nodeId");
        if (nodeId instanceof Map<?, ?> || nodeId instanceof List<?>) {
            throw new ConfigException(source + ".nodeId: must be a single value");
        }
        Object peers = map.get("peers");
        String joined = null;
        if (peers != null) {
            if (!(peers instanceof List<?> list)) {
                throw new ConfigException(source + ".peers: must be a list of {id, address}");
            }
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                String where = source + ".peers[" + i + "]";
                if (!(list.get(i) instanceof Map<?, ?> peer)) {
                    throw new ConfigException(where + ": must be a mapping with id and address");
                }
                for (Object key : peer.keySet()) {
                    if (!PEER_KEYS.contains(String.valueOf(key))) {
                        throw new ConfigException(where + ": unknown key '" + key + "' (expected one of [address, id])");
                    }
                }
                if (peer.get("id") == null || peer.get("address") == null) {
                    throw new ConfigException(where + ": needs both id and address");
                }
                parts.add(peer.get("id") + "=" + peer.get("address"));
            }
            joined = String.join(",", parts);
        }
        return new ClusterSettings(nodeId == null ? null : blankIsNull(nodeId.toString()), joined);
    }

    /** These settings where given, else {@code base}'s. */
    public ClusterSettings over(ClusterSettings base) {
        return new ClusterSettings(nodeId != null ? nodeId : base.nodeId, peers != null ? peers : base.peers);
    }

    /** Whether cluster mode is asked for (peers given). */
    public boolean enabled() {
        return peers != null;
    }

    /**
     * The checked peer list (id, host, port in the order given), or an error that names the setting:
     * peers need ids and loopback-or-not host:port addresses, ids are unique, this node is one of them,
     * and the store must be RocksDB.
     *
     * @throws ConfigException when cluster mode cannot start with these settings
     */
    public List<Member> validate(StorageMode storage) {
        if (!enabled()) {
            if (nodeId != null) {
                throw new ConfigException("--node-id (HIKYAKU_NODE_ID, cluster.nodeId) needs --cluster (HIKYAKU_CLUSTER, cluster.peers)");
            }
            return List.of();
        }
        if (storage != StorageMode.ROCKSDB) {
            throw new ConfigException("--cluster needs --storage rocksdb: a cluster node keeps its state on disk "
                    + "(the Raft log and the replicated store), not with --storage memory");
        }
        if (nodeId == null) {
            throw new ConfigException("--cluster needs --node-id (HIKYAKU_NODE_ID, cluster.nodeId): which of the peers this node is");
        }
        List<Member> members = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        for (String part : peers.split(",")) {
            String entry = part.trim();
            int eq = entry.indexOf('=');
            int colon = entry.lastIndexOf(':');
            if (eq <= 0 || colon < eq + 2 || colon == entry.length() - 1) {
                throw new ConfigException("--cluster: '" + entry + "' is not ID=HOST:PORT (e.g. n1=127.0.0.1:9601)");
            }
            String id = entry.substring(0, eq).trim();
            String host = entry.substring(eq + 1, colon).trim();
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (!id.matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new ConfigException("--cluster: node id '" + id + "' must be 1 to 64 letters, digits, '.', '_' or '-'");
            }
            int port;
            try {
                port = Integer.parseInt(entry.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                throw new ConfigException("--cluster: '" + entry + "' has no port number after the last ':'");
            }
            if (port < 1 || port > 65535) {
                throw new ConfigException("--cluster: port " + port + " of " + id + " is not 1..65535");
            }
            if (!ids.add(id)) {
                throw new ConfigException("--cluster: node id '" + id + "' appears twice");
            }
            members.add(new Member(id, host, port));
        }
        if (members.size() > MAX_PEERS) {
            throw new ConfigException("--cluster: " + members.size() + " peers, at most " + MAX_PEERS);
        }
        if (!ids.contains(nodeId)) {
            throw new ConfigException("--node-id " + nodeId + " is not among the --cluster peers " + ids);
        }
        return members;
    }

    /** One member of the cluster as configured. */
    public record Member(String id, String host, int port) {}

    private static String blankIsNull(String v) {
        return v == null || v.isBlank() ? null : v.trim();
    }
}
