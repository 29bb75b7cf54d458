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
 * A refusal is judged on memory too: a visibility change made while another client's delete of the
 * same message is still being written finds the message gone. If that delete then fails, the message
 * is back after recovery, so the refusal ("does not exist") must not have been given meanwhile: it
 * waits for the writes before it, and becomes the failed write's ServiceUnavailable.
 */
class RefusalAnswerWaitsTest {

    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    private final SqsService service = SqsServices.create(store, new MutableClock(1_700_000_000_000L));
    private final CallContext context = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void aRefusalJudgedOnAFailedDeleteIsNotGiven() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"q\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        String handle = ServiceHarness.await(call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"VisibilityTimeout\":30}"))
                .get("Messages").get(0).get("ReceiptHandle").asText();
        String delete = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}";
        String change = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":0}";

        store.fillDisk();
        store.holdOutcomes(); // the delete's failure is not known yet when the change is judged
        CompletableFuture<ObjectNode> deleted = call("DeleteMessage", delete);
        CompletableFuture<ObjectNode> changed = call("ChangeMessageVisibility", change);
        ((DefaultSqsService) service).awaitInvoked();
        assertThat(changed).as("the refusal waits for the delete's write").isNotDone();
        store.releaseOutcomes();

        assertThat(errorType(deleted)).isEqualTo("ServiceUnavailable");
        assertThat(errorType(changed)).as("judged on the delete, which failed").isEqualTo("ServiceUnavailable");
        store.freeDisk();
        assertThat(awaitRecovered(change)).as("the message is still there, in flight under its handle").isNotNull();
    }

    @Test
    void aRefusalWithNothingPendingIsAnsweredAsBefore() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"q\"}")).get("QueueUrl").asText();
        CompletableFuture<ObjectNode> missing = call("GetQueueUrl", "{\"QueueName\":\"nope\"}");
        assertThat(errorType(missing)).isEqualTo("QueueDoesNotExist");
        String bad = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"garbage\",\"VisibilityTimeout\":0}";
        assertThat(errorType(call("ChangeMessageVisibility", bad))).isEqualTo("ReceiptHandleIsInvalid");
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
