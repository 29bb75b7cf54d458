package io.hikyaku.server.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Adds a node's cluster view ({@code "cluster":{"nodeId","groups":[...]}}) to the health document. */
public final class ClusterHealth {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ClusterHealth() {}

    /** {@code health} (a JSON object) with {@code cluster} added; {@code health} as it is when cluster is null. */
    public static String addTo(String health, ObjectNode cluster) {
        if (cluster == null) {
            return health;
        }
        try {
            ObjectNode doc = (ObjectNode) JSON.readTree(health);
            doc.set("cluster", cluster);
            return doc.toString();
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalArgumentException("not a health document: " + health, e);
        }
    }
}
