package io.hikyaku.sns;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SNS's in-process calls to this server's queues ({@link SqsService#invoke}, as push delivery makes them): sends,
 * policy reads, and the sends the outbox retries. Also the one place that tells a queue's refusal apart:
 * client-side (the queue is gone, denies, refuses the message, or its KMS key cannot be used: not retried, the
 * message goes to the subscription's DLQ) or server-side (throttled, a store error: retried on SNS's policy for
 * AWS-managed endpoints, {@link HttpRetryPolicy#AWS_MANAGED}).
 */
final class QueueCalls {

    static final String BASE_URL = "http://hikyaku.internal";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqsService sqs;
    private final String region;
    private final AtomicLong requestIds = new AtomicLong();

    QueueCalls(SqsService sqs, String region) {
        this.sqs = sqs;
        this.region = region;
    }

    /** The in-process URL of a queue ARN ({@code arn:aws:sqs:<region>:<account>:<name>}). */
    static String queueUrl(String queueArn) {
        String[] arn = queueArn.split(":");
        return BASE_URL + "/" + arn[4] + "/" + arn[5];
    }

    static boolean isQueueArn(String endpoint) {
        return endpoint.startsWith("arn:aws:sqs:");
    }

    CompletableFuture<ObjectNode> call(String account, String action, ObjectNode input) {
        CallContext context = new CallContext(account, region, BASE_URL, null, "sns-" + requestIds.incrementAndGet());
        try {
            return sqs.invoke(context, new ApiRequest(action, input, WireProtocol.JSON, true, "/"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The queue's Policy attribute (null when it has none); waits, so never on the engine's thread. */
    String policy(String queueArn) {
        ObjectNode read = JSON.createObjectNode().put("QueueUrl", queueUrl(queueArn));
        read.putArray("AttributeNames").add("Policy");
        return call(queueArn.split(":")[4], "GetQueueAttributes", read).join().path("Attributes").path("Policy").asText(null);
    }

    /** Whether a queue's refusal is the endpoint owner's doing (not retried) rather than the server's (retried). */
    static boolean clientSide(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (!(cause instanceof ApiException api) || api.errorType() == null) {
            return false; // a store error or the like: the server's
        }
        String t = api.errorType();
        if (t.startsWith("Kms") || t.startsWith("KMS.")) { // KmsDisabled, KmsNotFound ... (KMS.*Exception on the wire)
            return !t.contains("Throttl"); // a disabled, missing or denied key is the queue owner's configuration
        }
        return t.contains("NonExistentQueue") || t.contains("QueueDoesNotExist") || t.contains("AccessDenied")
                || t.contains("InvalidParameterValue") || t.contains("InvalidMessageContents");
    }

    /**
     * The outbox's poster for queue endpoints: the delivery's body is the SendMessage input. 200 when the queue took
     * it, 400 for a client-side refusal (not retried), 500 for a server-side one (retried).
     */
    int resend(URI queueArn, Map<String, String> headers, byte[] body) throws IOException {
        ObjectNode input = (ObjectNode) JSON.readTree(body);
        try {
            call(queueArn.toString().split(":")[4], "SendMessage", input).join();
            return 200;
        } catch (RuntimeException e) {
            return clientSide(e) ? 400 : 500;
        }
    }
}
