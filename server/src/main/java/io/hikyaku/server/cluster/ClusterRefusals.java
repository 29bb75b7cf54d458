package io.hikyaku.server.cluster;

import io.hikyaku.kms.KmsException;
import io.hikyaku.kms.KmsRequests;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.push.LambdaApi;
import io.hikyaku.scheduler.SchedulerApi;
import io.hikyaku.scheduler.SchedulerException;
import io.hikyaku.scheduler.SchedulerRequests;
import io.hikyaku.sns.SnsRequests;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The APIs a cluster node refuses: SNS topics, KMS keys, Scheduler schedules and Lambda event source
 * mappings live in node-local files that are not replicated yet, so serving them would lose data on a
 * failover. Each is refused on every node, in its own protocol, with 400 and a message that says why
 * (a retry cannot help). Recognised by shape, as the dispatcher routes (CloudWatch first, as there).
 */
final class ClusterRefusals {

    static final String WHY = " is not available in cluster mode yet: its state is kept on one node and "
            + "not replicated, so it would be lost when the leader changes (docs/operations.md \"Cluster\")";

    private ClusterRefusals() {}

    /** The refusal for {@code raw}, or null when a cluster serves it (SQS, STS, CloudWatch, ...). */
    static HttpResponseData of(HttpRequestData raw, Predicate<HttpRequestData> cloudWatchAccepts, String requestId) {
        if (LambdaApi.handles(raw.path())) {
            return LambdaApi.invalidParameter("The Lambda API (event source mappings)" + WHY + ".");
        }
        if (SchedulerRequests.accepts(raw)) {
            return SchedulerApi.error(new SchedulerException("ValidationException", 400, "The Scheduler API" + WHY + "."));
        }
        if (cloudWatchAccepts != null && cloudWatchAccepts.test(raw)) {
            return null;
        }
        if (KmsRequests.accepts(raw)) {
            return KmsRequests.error(new KmsException("UnsupportedOperationException", 400, "KMS" + WHY + "."));
        }
        if (SnsRequests.accepts(raw)) {
            String xml = "<ErrorResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><Error><Type>Sender</Type>"
                    + "<Code>InvalidAction</Code><Message>SNS" + WHY.replace("\"", "&quot;") + ".</Message></Error>"
                    + "<RequestId>" + requestId + "</RequestId></ErrorResponse>";
            return new HttpResponseData(400, Map.of("Content-Type", "text/xml"), xml.getBytes(StandardCharsets.UTF_8));
        }
        return null;
    }
}
