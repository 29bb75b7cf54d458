package io.hikyaku.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates the configured queues through the service, exactly as a client would, so the same
 * validation applies. Idempotent across restarts: CreateQueue names only what must be fixed at
 * creation (FifoQueue), then SetQueueAttributes and TagQueue bring an existing queue up to date.
 */
final class QueueBootstrap {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final long CALL_TIMEOUT_SECONDS = 30;

    private final SqsService service;
    private final String accountId;
    private final String region;
    private final String baseUrl;
    private final Map<String, String> urls = new HashMap<>();

    QueueBootstrap(SqsService service, String accountId, String region, String baseUrl) {
        this.service = service;
        this.accountId = accountId;
        this.region = region;
        this.baseUrl = baseUrl;
    }

    /** @throws IllegalStateException naming the queue and the SQS error when a call fails */
    void createAll(List<QueueDefinition> queues) {
        for (QueueDefinition q : QueueOrder.deadLetterQueuesFirst(queues)) {
            create(q);
        }
    }

    private void create(QueueDefinition q) {
        Map<String, String> atCreation = new LinkedHashMap<>();
        Map<String, String> later = new LinkedHashMap<>(q.attributes());
        String fifo = later.remove("FifoQueue");
        if (fifo != null) {
            atCreation.put("FifoQueue", fifo);
        } else if (q.name().endsWith(".fifo")) {
            atCreation.put("FifoQueue", "true");
        }
        ObjectNode createInput = JSON.objectNode().put("QueueName", q.name());
        if (!atCreation.isEmpty()) {
            createInput.set("Attributes", stringMap(atCreation));
        }
        String url = call(q, "CreateQueue", createInput).path("QueueUrl").asText();
        urls.put(accountOf(q) + "/" + q.name(), url);

        if (q.deadLetterQueue() != null) {
            ObjectNode redrive = JSON.objectNode()
                    .put("deadLetterTargetArn", arnOf(q, q.deadLetterQueue()))
                    .put("maxReceiveCount", q.maxReceiveCount());
            later.put("RedrivePolicy", redrive.toString());
        }
        if (!later.isEmpty()) {
            call(q, "SetQueueAttributes", JSON.objectNode().put("QueueUrl", url).set("Attributes", stringMap(later)));
        }
        if (!q.tags().isEmpty()) {
            call(q, "TagQueue", JSON.objectNode().put("QueueUrl", url).set("Tags", stringMap(q.tags())));
        }
    }

    private String arnOf(QueueDefinition q, String queueName) {
        String url = urls.get(accountOf(q) + "/" + queueName);
        if (url == null) {
            try {
                url = call(q, "GetQueueUrl", JSON.objectNode().put("QueueName", queueName)).path("QueueUrl").asText();
            } catch (IllegalStateException e) {
                if (e.getCause() instanceof ApiException api && api.errorType().equals("QueueDoesNotExist")) {
                    throw new IllegalStateException("queue " + q.name() + ": its dead-letter queue " + queueName
                            + " does not exist (it is neither in the config file nor on the server)", e);
                }
                throw e;
            }
            urls.put(accountOf(q) + "/" + queueName, url);
        }
        ObjectNode input = JSON.objectNode().put("QueueUrl", url);
        input.putArray("AttributeNames").add("QueueArn");
        return call(q, "GetQueueAttributes", input).path("Attributes").path("QueueArn").asText();
    }

    private ObjectNode call(QueueDefinition q, String action, ObjectNode input) {
        String requestId = "startup-" + UUID.randomUUID();
        CallContext context = new CallContext(accountOf(q), region, baseUrl, null, requestId);
        try {
            return service.invoke(context, new ApiRequest(action, input, WireProtocol.JSON, false, "/"))
                    .get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw failure(q, action, e.getCause());
        } catch (ApiException | UnsupportedOperationException e) {
            throw failure(q, action, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(q, action, e);
        } catch (TimeoutException e) {
            throw failure(q, action, e);
        }
    }

    /** A queue's own account (config {@code queues[].account}), else the default account. */
    private String accountOf(QueueDefinition q) {
        return q.account() != null ? q.account() : accountId;
    }

    private static IllegalStateException failure(QueueDefinition q, String action, Throwable cause) {
        String why = cause instanceof ApiException api ? api.errorType() + ": " + api.getMessage() : String.valueOf(cause);
        return new IllegalStateException("queue " + q.name() + ": " + action + " failed: " + why, cause);
    }

    private static ObjectNode stringMap(Map<String, String> map) {
        ObjectNode node = JSON.objectNode();
        map.forEach(node::put);
        return node;
    }
}
