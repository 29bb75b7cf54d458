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
 * A client told 503 may call again at once: that call must not reach the engine, whose memory is
 * still ahead of the disk (the failed change applied). The fence is up before the 503 is given.
 * The next call is made inside the 503's own callback, on the store's completing thread, so it runs
 * before anything else that thread would do afterwards: deterministic, whatever the machine's load.
 */
class FenceBeforeAnswerTest {

    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    private final SqsService service = SqsServices.create(store, new MutableClock(1_700_000_000_000L));
    private final CallContext context = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void aCallMadeOnHearingOfAFailedDeleteDoesNotSeeTheDelete() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"q\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        String handle = ServiceHarness.await(call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"VisibilityTimeout\":30}"))
                .get("Messages").get(0).get("ReceiptHandle").asText();
        String change = "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":0}";

        store.fillDisk(); // no recovery before the test frees it: the next call can only be fenced or wrong
        store.slow(200_000); // the failure is reported on the store's thread, after every callback is registered
        CompletableFuture<Throwable> next = call("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}")
                .handle((v, deleteFailure) -> {
                    assertThat(deleteFailure).isInstanceOf(ApiException.class);
                    try {
                        call("ChangeMessageVisibility", change).get(5, TimeUnit.SECONDS);
                        return null;
                    } catch (ExecutionException e) {
                        return e.getCause();
                    } catch (Exception e) {
                        return e;
                    }
                });

        Throwable refused = next.get(10, TimeUnit.SECONDS);
        store.slow(0);
        store.freeDisk();
        assertThat(refused).as("the change made on hearing 503 is refused as unavailable, not judged on the unwritten delete")
                .isInstanceOf(ApiException.class);
        assertThat(((ApiException) refused).errorType()).isEqualTo("ServiceUnavailable");
        assertThat(awaitRecovered(change)).as("after recovery the message is still there, in flight under its handle")
                .isNotNull();
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
