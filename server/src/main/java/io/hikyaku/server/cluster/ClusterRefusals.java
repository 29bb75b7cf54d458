package io.hikyaku.server.cluster;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.push.LambdaApi;
import java.util.function.Predicate;

/**
 * The APIs a cluster node refuses: Lambda event source mappings live in node-local files that are not
 * replicated yet, so serving them would lose data on a failover. Refused on every node with 400 and a
 * message that says why (a retry cannot help). SNS, KMS, the Scheduler and CloudWatch alarms are served:
 * their state is in the replicated service log ({@link LeaderServices}).
 */
final class ClusterRefusals {

    static final String WHY = " is not available in cluster mode yet: its state is kept on one node and "
            + "not replicated, so it would be lost when the leader changes (docs/operations.md \"Cluster\")";

    private ClusterRefusals() {}

    /** The refusal for {@code raw}, or null when a cluster serves it (SQS, STS, CloudWatch, SNS, KMS, ...). */
    static HttpResponseData of(HttpRequestData raw, Predicate<HttpRequestData> cloudWatchAccepts, String requestId) {
        if (LambdaApi.handles(raw.path())) {
            return LambdaApi.invalidParameter("The Lambda API (event source mappings)" + WHY + ".");
        }
        return null;
    }
}
