package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A call that writes nothing is judged on memory, which may hold a change whose write has not
 * settled: a second delete of a message finds it gone. If that first delete then fails, the message
 * is back after recovery, so the second delete must not have been answered 200 meanwhile (a delete
 * acknowledged, then the message delivered again). Its answer waits for the writes before it.
 */
class NoChangeAnswerWaitsTest {

    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    private final SqsService service = SqsServices.create(store, new MutableClock(1_700_000_000_000L));
    private final CallContext context = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void aSecondDeleteIsNotAcknowledgedBeforeTheFirstIsDurable() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"q\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        String handle = ServiceHarness.await(call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"VisibilityTimeout\":30}"))
                .get("Messages").get(0).get("ReceiptHandle").asText();
        String delete = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}";

        store.fillDisk();
        store.holdOutcomes(); // the first delete's failure is not known yet when the second runs
        CompletableFuture<ObjectNode> first = call("DeleteMessage", delete);
        CompletableFuture<ObjectNode> second = call("DeleteMessage", delete);
        ((DefaultSqsService) service).awaitInvoked();
        store.releaseOutcomes();

        assertThat(errorType(first)).isEqualTo("ServiceUnavailable");
        assertThat(errorType(second)).as("the second delete was judged on the first, which failed").isEqualTo("ServiceUnavailable");
        store.freeDisk();
        String change = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":0}";
        assertThat(awaitRecovered(change)).as("the message is still there, in flight under its handle").isNotNull();
    }

    private static String errorType(CompletableFuture<ObjectNode> call) throws Exception {
        try {
            return "answered " + call.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause() instanceof ApiException api ? api.errorType() : String.valueOf(e.getCause());
        }
    }

    /** Retries the change while it gets 503 (the store recovering), for at most 10 s. */
    private ObjectNode awaitRecovered(String change) throws Exception {
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

    private CompletableFuture<ObjectNode> call(String action, String json) {
        return service.invoke(context, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }
}
