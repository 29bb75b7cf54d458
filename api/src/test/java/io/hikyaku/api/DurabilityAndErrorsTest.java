package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DurabilityAndErrorsTest {

    private final GatedStore store = new GatedStore();
    private final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    private final SqsService service = SqsServices.create(store, clock);
    private final CallContext context = new CallContext("000000000000", "us-east-1", "http://h:1", "Root=1-trace", "r");

    @AfterEach
    void close() {
        service.close();
    }

    private CompletableFuture<ObjectNode> call(String action, String json) {
        return service.invoke(context, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    @Test
    void answersWaitUntilTheChangeIsDurable() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"d\"}")).get("QueueUrl").asText();
        store.hold();
        CompletableFuture<ObjectNode> sent = call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}");
        Thread.sleep(50);
        assertThat(sent).isNotDone();
        store.releaseAll();
        assertThat(sent.get(2, TimeUnit.SECONDS).get("MessageId").asText()).isNotEmpty();
    }

    @Test
    void aReadWaitsForTheFsyncOfEverythingBeforeItAReceiveOnlyForItsMessagesSends() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"r\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        store.hold();
        CompletableFuture<ObjectNode> received = call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}");
        CompletableFuture<ObjectNode> counted = call("GetQueueAttributes",
                "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}");
        // the send is durable: the receive does not wait for its own write (docs/operations.md)
        ObjectNode got = received.get(2, TimeUnit.SECONDS);
        assertThat(got.get("Messages")).hasSize(1);
        Thread.sleep(50);
        assertThat(counted).isNotDone();
        store.releaseAll();
        assertThat(counted.get(2, TimeUnit.SECONDS).get("Attributes").get("ApproximateNumberOfMessagesNotVisible").asText())
                .isEqualTo("1");
        store.hold();
        String handle = got.get("Messages").get(0).get("ReceiptHandle").asText();
        CompletableFuture<ObjectNode> deleted = call("DeleteMessage",
                "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}");
        Thread.sleep(50);
        assertThat(deleted).isNotDone();
        store.releaseAll();
        deleted.get(2, TimeUnit.SECONDS);
    }

    /** The fence is the one record of a failure above the store: /health and the healthy gauge read it. */
    @Test
    void aFailedWriteIsTheStorageProblemUntilTheRecoveryHasReloaded() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"sp\"}")).get("QueueUrl").asText();
        assertThat(service.storageProblem()).isNull();
        store.fail();
        Throwable failure = call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}")
                .handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(((ApiException) failure).errorType()).isEqualTo("ServiceUnavailable");
        assertThat(service.storageProblem()).contains("disk full");
        store.heal();
        awaitRecovered(() -> call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"y\"}"));
        assertThat(service.storageProblem()).isNull();
        service.fence("this node does not lead"); // deliberate: 503s, but no storage problem
        assertThat(service.storageProblem()).isNull();
    }

    @Test
    void aReceiveWhoseWriteIsRefusedFailsAndChangesNothing() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"rf\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        store.fail();
        Throwable failure = call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}")
                .handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(failure).isInstanceOf(ApiException.class);
        assertThat(((ApiException) failure).errorType()).isEqualTo("ServiceUnavailable");
        store.heal();
        ObjectNode got = awaitRecovered(() -> call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}"));
        assertThat(got.get("Messages")).as("the failed receive hid nothing").hasSize(1);
    }

    @Test
    void aFailedWriteIsServiceUnavailableAndErrorsAreNeverWrapped() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"f\"}")).get("QueueUrl").asText();
        store.fail();
        CompletableFuture<ObjectNode> sent = call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}");
        Throwable failure = sent.handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(failure).isInstanceOf(ApiException.class);
        assertThat(((ApiException) failure).errorType()).isEqualTo("ServiceUnavailable");
        store.heal();
        ObjectNode got = awaitRecovered(() -> call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}"));
        assertThat(got.has("Messages")).as("the failed send is never delivered").isFalse();

        Throwable refused = call("GetQueueUrl", "{\"QueueName\":\"nope\"}").handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(refused).isInstanceOf(ApiException.class);
    }

    /** Retries {@code call} while it gets 503 (the store recovering), for at most 10 s. */
    private static ObjectNode awaitRecovered(java.util.function.Supplier<CompletableFuture<ObjectNode>> call)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return call.get().get(2, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                boolean recovering = e.getCause() instanceof ApiException api
                        && api.errorType().equals("ServiceUnavailable");
                if (!recovering || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    @Test
    void theTraceHeaderOfTheCallBecomesAwsTraceHeader() {
        store.releaseAll();
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"t\"}")).get("QueueUrl").asText();
        ObjectNode sent = ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        assertThat(sent.has("MD5OfMessageSystemAttributes")).isTrue();
        ObjectNode got = ServiceHarness.await(call("ReceiveMessage",
                "{\"QueueUrl\":\"" + url + "\",\"MessageSystemAttributeNames\":[\"AWSTraceHeader\"]}"));
        assertThat(got.get("Messages").get(0).get("Attributes").get("AWSTraceHeader").asText()).isEqualTo("Root=1-trace");
    }
}
