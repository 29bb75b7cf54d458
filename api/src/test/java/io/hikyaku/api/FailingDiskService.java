package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The setting of the fence tests: a service over a {@link FaultInjectingStore}, called with JSON
 * inputs without waiting (a test decides when the store's outcomes are known), and a queue holding one
 * message in flight whose delete or visibility change is judged while a write fails.
 */
final class FailingDiskService implements AutoCloseable {

    /** A queue's URL and the receipt handle of its one message, in flight for 30 s. */
    record InFlight(String url, String handle) {
        String delete() {
            return "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}";
        }

        /** Makes the message visible again. */
        String change() {
            return "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":0}";
        }
    }

    final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    final SqsService service = SqsServices.create(store, new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L)));
    private final CallContext context = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    /** Creates queue "q", sends one message and receives it. */
    InFlight messageInFlight() {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"q\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        String handle = ServiceHarness.await(call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"VisibilityTimeout\":30}"))
                .get("Messages").get(0).get("ReceiptHandle").asText();
        return new InFlight(url, handle);
    }

    CompletableFuture<ObjectNode> call(String action, String json) {
        return service.invoke(context, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    /** Returns once the engines have run every call made so far (their answers may still wait). */
    void awaitInvoked() {
        ((DefaultSqsService) service).awaitInvoked();
    }

    /** The call's error type, or "answered ..." if it succeeded. */
    static String errorType(CompletableFuture<ObjectNode> call) throws Exception {
        try {
            return "answered " + call.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause() instanceof ApiException api ? api.errorType() : String.valueOf(e.getCause());
        }
    }

    /** Retries the change while it gets 503 (the store recovering), for at most 10 s. */
    ObjectNode awaitRecovered(String change) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return call("ChangeMessageVisibility", change).get(5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof ApiException api) || !api.errorType().equals("ServiceUnavailable")
                        || System.nanoTime() > deadline) {
                    throw new AssertionError("not recovered: " + e.getCause(), e.getCause());
                }
                Thread.sleep(20);
            }
        }
    }

    @Override
    public void close() {
        service.close();
    }
}
