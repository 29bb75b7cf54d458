package io.hikyaku.scheduler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.concurrent.TimeUnit;

/** {@link TargetQueues} of this server's SQS: GetQueueAttributes in-process, in the queue's own account. */
final class SqsTargetQueues implements TargetQueues {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE_URL = "http://hikyaku.internal";

    private final SqsService sqs;
    private final String region;

    SqsTargetQueues(SqsService sqs, String region) {
        this.sqs = sqs;
        this.region = region;
    }

    @Override
    public Boolean contentBasedDeduplication(String queueArn) {
        String[] a = queueArn.split(":");
        ObjectNode input = JSON.createObjectNode().put("QueueUrl", BASE_URL + "/" + a[4] + "/" + a[5]);
        input.putArray("AttributeNames").add("ContentBasedDeduplication");
        CallContext context = new CallContext(a[4], region, BASE_URL, null, "scheduler-target-check");
        try {
            ObjectNode out = sqs.invoke(context, new ApiRequest("GetQueueAttributes", input, WireProtocol.JSON, true, "/"))
                    .get(10, TimeUnit.SECONDS);
            return Boolean.parseBoolean(out.path("Attributes").path("ContentBasedDeduplication").asText("false"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            return null; // no such queue (or not readable now): its fires will fail and say so
        }
    }
}
