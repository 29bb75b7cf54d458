package io.hikyaku.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * A scriptable service. By default: {@code Echo} returns what the server passed in; the queue
 * actions the start-up code uses behave like a tiny SQS; {@link #park} makes an action wait until the
 * test completes it.
 */
final class FakeService implements SqsService {

    record Call(CallContext context, ApiRequest request) {}

    final List<Call> calls = new CopyOnWriteArrayList<>();
    final Map<String, CompletableFuture<ObjectNode>> parked = new ConcurrentHashMap<>();
    final Map<String, BiFunction<CallContext, ApiRequest, CompletableFuture<ObjectNode>>> handlers = new ConcurrentHashMap<>();
    volatile boolean closed;
    /** Run when a stop begins ({@link #beginStop}). */
    volatile Runnable onBeginStop = () -> { };

    /** Calls to {@code action} get this future (complete it to answer them). */
    CompletableFuture<ObjectNode> park(String action) {
        CompletableFuture<ObjectNode> f = new CompletableFuture<>();
        parked.put(action, f);
        return f;
    }

    @Override
    public CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request) {
        calls.add(new Call(context, request));
        CompletableFuture<ObjectNode> p = parked.get(request.action());
        if (p != null) {
            return p;
        }
        var handler = handlers.get(request.action());
        if (handler != null) {
            return handler.apply(context, request);
        }
        ObjectNode out = FakeCodec.JSON.createObjectNode();
        String name = request.input().path("QueueName").asText();
        String url = request.input().path("QueueUrl").asText();
        switch (request.action()) {
            case "Echo" -> {
                out.put("action", request.action()).put("accountId", context.accountId()).put("region", context.region())
                        .put("baseUrl", context.baseUrl()).put("requestId", context.requestId()).put("path", request.path());
                out.put("traceHeader", context.traceHeader());
                out.set("input", request.input());
            }
            case "CreateQueue", "GetQueueUrl" -> out.put("QueueUrl", context.baseUrl() + "/" + context.accountId() + "/" + name);
            case "GetQueueAttributes" -> out.putObject("Attributes").put("QueueArn",
                    "arn:aws:sqs:" + context.region() + ":" + context.accountId() + ":" + url.substring(url.lastIndexOf('/') + 1));
            case "Fail" -> {
                return CompletableFuture.failedFuture(new ApiException("QueueDoesNotExist", "The specified queue does not exist."));
            }
            case "Crash" -> {
                return CompletableFuture.failedFuture(new IllegalStateException("boom"));
            }
            case "Throw" -> throw new IllegalStateException("thrown synchronously");
            default -> { }
        }
        return CompletableFuture.completedFuture(out);
    }

    List<String> actions() {
        return calls.stream().map(c -> c.request().action()).toList();
    }

    @Override
    public int beginStop() {
        onBeginStop.run();
        return 0;
    }

    @Override
    public void close() {
        closed = true;
    }
}
