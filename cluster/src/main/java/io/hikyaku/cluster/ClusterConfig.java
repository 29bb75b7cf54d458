package io.hikyaku.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who this node is and every member of the cluster with its Raft (gRPC) address. Every node is a
 * member of the cluster's one Raft group; the list must be the same on every node.
 */
public record ClusterConfig(String nodeId, List<Peer> peers) {

    /** A member: its node id and the host and port its Raft server listens on. */
    public record Peer(String id, String host, int port) {
        public Peer {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(host, "host");
        }

        /** host:port, with brackets around an IPv6 literal. */
        public String address() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    public ClusterConfig {
        Objects.requireNonNull(nodeId, "nodeId");
        peers = List.copyOf(peers);
        validate(nodeId, peers);
    }

    /** This node's own entry in {@link #peers()}. */
    public Peer self() {
        return peers.stream().filter(p -> p.id().equals(nodeId)).findFirst().orElseThrow();
    }

    /**
     * Parses {@code "n1=127.0.0.1:9601,n2=127.0.0.1:9602,n3=127.0.0.1:9603"} (an IPv6 host in
     * brackets: {@code n1=[::1]:9601}). Throws IllegalArgumentException with a text that names what
     * is wrong: an empty list, a malformed entry, a bad port, duplicate ids or addresses, or an own id
     * that is not in the list.
     */
    public static ClusterConfig parse(String nodeId, String peers) {
        if (nodeId == null || nodeId.isBlank()) {
            throw new IllegalArgumentException("the node id is empty: give this node's id, one of the --cluster ids");
        }
        if (peers == null || peers.isBlank()) {
            throw new IllegalArgumentException("the cluster lists no node: expected id=host:port[,id=host:port...]");
        }
        List<Peer> parsed = new ArrayList<>();
        for (String part : peers.split(",", -1)) {
            String entry = part.trim();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("empty entry in cluster list '" + peers + "': expected id=host:port[,id=host:port...]");
            }
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new IllegalArgumentException("cluster entry '" + entry + "' is not id=host:port");
            }
            String id = entry.substring(0, eq).trim();
            String address = entry.substring(eq + 1).trim();
            String host;
            String portText;
            if (address.startsWith("[")) {
                int close = address.indexOf(']');
                if (close < 0 || close + 1 >= address.length() || address.charAt(close + 1) != ':') {
                    throw new IllegalArgumentException("cluster entry '" + entry + "' has a malformed IPv6 address: expected [host]:port");
                }
                host = address.substring(1, close);
                portText = address.substring(close + 2);
            } else {
                int colon = address.lastIndexOf(':');
                if (colon <= 0 || address.indexOf(':') != colon) {
                    throw new IllegalArgumentException("cluster entry '" + entry + "' has no host:port address");
                }
                host = address.substring(0, colon);
                portText = address.substring(colon + 1);
            }
            int port;
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cluster entry '" + entry + "' has a bad port '" + portText + "': expected 1-65535");
            }
            parsed.add(new Peer(id, host, port));
        }
        return new ClusterConfig(nodeId.trim(), parsed);
    }

    /** Parses a list of members as {@link #parse} does, without naming this node (the CLI's --set-members). */
    public static List<Peer> parsePeers(String peers) {
        if (peers == null || peers.isBlank()) {
            throw new IllegalArgumentException("the cluster lists no node: expected id=host:port[,id=host:port...]");
        }
        String first = peers.split(",", 2)[0];
        int eq = first.indexOf('=');
        return parse(eq > 0 ? first.substring(0, eq).trim() : "-", peers).peers();
    }

    private static void validate(String nodeId, List<Peer> peers) {
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("the cluster lists no node: at least 1 is needed");
        }
        Set<String> ids = new HashSet<>();
        Set<String> addresses = new HashSet<>();
        for (Peer p : peers) {
            if (!NODE_ID.matcher(p.id()).matches()) {
                throw new IllegalArgumentException("node id '" + p.id() + "' is not valid: 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
            }
            if (p.host().isBlank()) {
                throw new IllegalArgumentException("node " + p.id() + " has an empty host");
            }
            if (p.port() < 1 || p.port() > 65535) {
                throw new IllegalArgumentException("node " + p.id() + " has a bad port " + p.port() + ": expected 1-65535");
            }
            if (!ids.add(p.id())) {
                throw new IllegalArgumentException("node id '" + p.id() + "' appears more than once in the cluster list");
            }
            if (!addresses.add(p.address().toLowerCase(java.util.Locale.ROOT))) {
                throw new IllegalArgumentException("address " + p.address() + " appears more than once in the cluster list (node " + p.id() + ")");
            }
        }
        if (!ids.contains(nodeId)) {
            throw new IllegalArgumentException("this node's id '" + nodeId + "' is not in the cluster list (" + String.join(", ", ids.stream().sorted().toList()) + ")");
        }
    }
}
