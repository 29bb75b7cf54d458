package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.QueueAccess;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Authorization reads a queue's Policy and tags without the engine lock, from snapshots the engine
 * publishes: each change is seen by the very next request, and an engine reloaded after a storage
 * failure replaces them with what the disk has.
 */
class AccessSnapshotsTest {

    private static final String ACCOUNT = "000000000000";
    private static final String POLICY = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
            + "\"Principal\":\"*\",\"Action\":\"sqs:SendMessage\",\"Resource\":\"*\"}]}";

    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    private final SqsService service = SqsServices.create(store, new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L)));
    private final ServiceView view = (ServiceView) service;
    private final CallContext context = new CallContext(ACCOUNT, "us-east-1", "http://h:1", null, "r");

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void everyChangeIsSeenByTheNextRequest() {
        assertThat(view.queueAccess(ACCOUNT, "q")).isNull();
        String url = ok("CreateQueue", "{\"QueueName\":\"q\",\"tags\":{\"team\":\"red\"}}").get("QueueUrl").asText();
        assertThat(view.queueAccess(ACCOUNT, "q")).isEqualTo(new QueueAccess(null, Map.of("team", "red")));

        ok("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":{\"Policy\":" + quoted(POLICY) + "}}");
        assertThat(view.queueAccess(ACCOUNT, "q").policy()).isEqualTo(POLICY);

        ok("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"env\":\"prod\"}}");
        assertThat(view.queueAccess(ACCOUNT, "q").tags()).isEqualTo(Map.of("team", "red", "env", "prod"));
        ok("UntagQueue", "{\"QueueUrl\":\"" + url + "\",\"TagKeys\":[\"team\"]}");
        assertThat(view.queueAccess(ACCOUNT, "q").tags()).isEqualTo(Map.of("env", "prod"));

        ok("AddPermission", "{\"QueueUrl\":\"" + url + "\",\"Label\":\"l1\",\"AWSAccountIds\":[\"111111111111\"],"
                + "\"Actions\":[\"ReceiveMessage\"]}");
        assertThat(view.queueAccess(ACCOUNT, "q").policy()).contains("\"Sid\":\"l1\"").contains("111111111111")
                .doesNotContain("sqs:SendMessage");
        ok("RemovePermission", "{\"QueueUrl\":\"" + url + "\",\"Label\":\"l1\"}");
        assertThat(view.queueAccess(ACCOUNT, "q").policy()).isNull();

        ok("DeleteQueue", "{\"QueueUrl\":\"" + url + "\"}");
        assertThat(view.queueAccess(ACCOUNT, "q")).isNull();
    }

    @Test
    void aReloadAfterAStorageFailureRebuildsTheSnapshotsFromTheDisk() throws Exception {
        String url = ok("CreateQueue", "{\"QueueName\":\"q\",\"tags\":{\"team\":\"red\"}}").get("QueueUrl").asText();
        ok("CreateQueue", "{\"QueueName\":\"kept\"}");

        // the engine applies these in memory, publishes them, then their writes fail: the disk never has them
        store.failNextWrites(1);
        assertThat(error("TagQueue", "{\"QueueUrl\":\"" + url + "\",\"Tags\":{\"team\":\"blue\"}}").errorType())
                .isEqualTo("ServiceUnavailable");
        awaitRecovered();
        assertThat(view.queueAccess(ACCOUNT, "q").tags()).as("the tag that was not written is gone")
                .isEqualTo(Map.of("team", "red"));

        store.failNextWrites(1);
        assertThat(error("DeleteQueue", "{\"QueueUrl\":\"" + url + "\"}").errorType()).isEqualTo("ServiceUnavailable");
        awaitRecovered();
        assertThat(view.queueAccess(ACCOUNT, "q")).as("the delete that was not written is undone").isNotNull();
        assertThat(view.queueAccess(ACCOUNT, "kept")).isEqualTo(new QueueAccess(null, Map.of()));

        // after the reload, changes are followed on the new engine
        ok("SetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"Attributes\":{\"Policy\":" + quoted(POLICY) + "}}");
        assertThat(view.queueAccess(ACCOUNT, "q").policy()).isEqualTo(POLICY);
    }

    private static String quoted(String s) {
        return ServiceHarness.JSON.valueToTree(s).toString();
    }

    private CompletableFuture<ObjectNode> call(String action, String json) {
        return service.invoke(context, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    private ObjectNode ok(String action, String json) {
        return ServiceHarness.await(call(action, json));
    }

    private ApiException error(String action, String json) {
        return ServiceHarness.awaitError(call(action, json));
    }

    /** Waits (at most 10 s) until calls pass again: the store recovered and the engine was reloaded. */
    private void awaitRecovered() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                call("ListQueues", "{}").get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof ApiException api) || !api.errorType().equals("ServiceUnavailable")
                        || System.nanoTime() > deadline) {
                    throw new AssertionError("not recovered: " + e.getCause(), e.getCause());
                }
                Thread.sleep(20);
            }
        }
    }
}
