package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DurabilityAndErrorsTest {

    private final GatedStore store = new GatedStore();
    private final MutableClock clock = new MutableClock(1_700_000_000_000L);
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
    void aReceiveIsAnsweredBeforeItsFsyncButTheDeleteAfterItWaits() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"r\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        store.hold();
        ObjectNode got = call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}").get(2, TimeUnit.SECONDS);
        assertThat(got.get("Messages")).hasSize(1);
        String handle = got.get("Messages").get(0).get("ReceiptHandle").asText();
        CompletableFuture<ObjectNode> deleted = call("DeleteMessage",
                "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}");
        Thread.sleep(50);
        assertThat(deleted).isNotDone();
        store.releaseAll();
        deleted.get(2, TimeUnit.SECONDS);
    }

    @Test
    void aReceiveWhoseWriteIsRefusedFails() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"rf\"}")).get("QueueUrl").asText();
        ServiceHarness.await(call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}"));
        store.fail();
        Throwable failure = call("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}")
                .handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(failure).isInstanceOf(ApiException.class);
        assertThat(((ApiException) failure).errorType()).isEqualTo("InternalError");
    }

    @Test
    void aFailedWriteIsAnInternalErrorAndErrorsAreNeverWrapped() throws Exception {
        String url = ServiceHarness.await(call("CreateQueue", "{\"QueueName\":\"f\"}")).get("QueueUrl").asText();
        store.fail();
        CompletableFuture<ObjectNode> sent = call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"x\"}");
        Throwable failure = sent.handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(failure).isInstanceOf(ApiException.class);
        assertThat(((ApiException) failure).errorType()).isEqualTo("InternalError");

        Throwable refused = call("GetQueueUrl", "{\"QueueName\":\"nope\"}").handle((v, e) -> e).get(2, TimeUnit.SECONDS);
        assertThat(refused).isInstanceOf(ApiException.class);
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
