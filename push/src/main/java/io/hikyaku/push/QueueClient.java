package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SQS calls push delivery makes, in-process through {@link SqsService#invoke} in the account of
 * the mapping (the account that created it; {@link QueueAccess} decides beforehand whether it may): exactly what a client would get (long polls, visibility, receive counts, the DLQ redrive),
 * without HTTP. Futures fail with the service's {@link io.hikyaku.protocol.ApiException}.
 */
public final class QueueClient {

    /** Only the path of a queue URL names the queue, so any base works for in-process calls. */
    static final String BASE_URL = "http://hikyaku.internal";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final SqsService sqs;
    private final String region;
    private final AtomicLong requestIds = new AtomicLong();

    public QueueClient(SqsService sqs, String region) {
        this.sqs = sqs;
        this.region = region;
    }

    /**
     * What a mapping needs to know about its queue.
     *
     * @param visibilityTimeoutSeconds the queue's default visibility timeout
     * @param fifo                     whether it is a FIFO queue
     */
    public record QueueInfo(int visibilityTimeoutSeconds, boolean fifo) {}

    public CompletableFuture<QueueInfo> describe(String account, QueueArn queue) {
        ObjectNode input = NODES.objectNode().put("QueueUrl", queue.queueUrl());
        input.putArray("AttributeNames").add("VisibilityTimeout").add("FifoQueue");
        return call(account, queue, "GetQueueAttributes", input).thenApply(out -> {
            JsonNode attributes = out.path("Attributes");
            return new QueueInfo(Integer.parseInt(attributes.path("VisibilityTimeout").asText("30")),
                    attributes.path("FifoQueue").asText("false").equals("true"));
        });
    }

    /** Up to {@code max} (1-10) messages with every system and message attribute, waiting up to {@code waitSeconds}. */
    public CompletableFuture<List<ObjectNode>> receive(String account, QueueArn queue, int max, int waitSeconds) {
        ObjectNode input = NODES.objectNode().put("QueueUrl", queue.queueUrl())
                .put("MaxNumberOfMessages", max).put("WaitTimeSeconds", waitSeconds);
        input.putArray("MessageSystemAttributeNames").add("All");
        input.putArray("MessageAttributeNames").add("All");
        return call(account, queue, "ReceiveMessage", input).thenApply(out -> {
            List<ObjectNode> messages = new ArrayList<>();
            for (JsonNode m : out.path("Messages")) {
                messages.add((ObjectNode) m);
            }
            return messages;
        });
    }

    /**
     * Deletes messages by receipt handle, 10 per DeleteMessageBatch. Completes with the number of
     * entries SQS refused (e.g. a receipt handle that expired because the visibility timeout passed).
     */
    public CompletableFuture<Integer> delete(String account, QueueArn queue, List<String> receiptHandles) {
        CompletableFuture<Integer> all = CompletableFuture.completedFuture(0);
        for (int from = 0; from < receiptHandles.size(); from += 10) {
            List<String> chunk = receiptHandles.subList(from, Math.min(receiptHandles.size(), from + 10));
            ObjectNode input = NODES.objectNode().put("QueueUrl", queue.queueUrl());
            ArrayNode entries = input.putArray("Entries");
            for (int i = 0; i < chunk.size(); i++) {
                entries.addObject().put("Id", "m" + i).put("ReceiptHandle", chunk.get(i));
            }
            CompletableFuture<Integer> one = call(account, queue, "DeleteMessageBatch", input).thenApply(out -> out.path("Failed").size());
            all = all.thenCombine(one, Integer::sum);
        }
        return all;
    }

    /** One call on {@code queue} (its URL names the queue's account) made by {@code account}. */
    private CompletableFuture<ObjectNode> call(String account, QueueArn queue, String action, ObjectNode input) {
        CallContext context = new CallContext(account, region, BASE_URL, null, "push-" + requestIds.incrementAndGet());
        try {
            return sqs.invoke(context, new ApiRequest(action, input, WireProtocol.JSON, true, "/"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
