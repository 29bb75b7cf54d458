package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The service with two engine shards: each account's requests reach the engine that owns it. */
class EngineShardsServiceTest {

    private static final String A0 = accountOn(0);
    private static final String A1 = accountOn(1);

    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    private final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    private final DefaultSqsService service = new DefaultSqsService(store, clock, CommandQueue.CAPACITY, true,
            Long.MAX_VALUE, io.hikyaku.engine.QueueEngine.DEFAULT_INDEX_WINDOW, line -> { }, 2);

    private static String accountOn(int shard) {
        for (long n = 200000000000L; ; n++) {
            if (EngineShard.of(Long.toString(n), 2) == shard) {
                return Long.toString(n);
            }
        }
    }

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void everyActionReachesTheShardOfTheAccountItNames() throws Exception {
        String url0 = call(A0, "CreateQueue", "{\"QueueName\":\"orders\"}").get("QueueUrl").asText();
        String url1 = call(A1, "CreateQueue", "{\"QueueName\":\"orders\"}").get("QueueUrl").asText();
        assertThat(url0).endsWith("/" + A0 + "/orders");
        assertThat(url1).endsWith("/" + A1 + "/orders");
        call(A0, "SendMessage", "{\"QueueUrl\":\"" + url0 + "\",\"MessageBody\":\"for a0\"}");
        call(A1, "SendMessage", "{\"QueueUrl\":\"" + url1 + "\",\"MessageBody\":\"for a1\"}");
        // a queue URL of the other account is served by that account's shard (auth aside)
        ObjectNode got = call(A0, "ReceiveMessage", "{\"QueueUrl\":\"" + url1 + "\"}");
        assertThat(got.get("Messages").get(0).get("Body").asText()).isEqualTo("for a1");
        call(A0, "DeleteMessage", "{\"QueueUrl\":\"" + url1 + "\",\"ReceiptHandle\":\""
                + got.get("Messages").get(0).get("ReceiptHandle").asText() + "\"}");
        assertThat(call(A0, "ReceiveMessage", "{\"QueueUrl\":\"" + url0 + "\"}").get("Messages").get(0)
                .get("Body").asText()).isEqualTo("for a0");
        assertThat(call(A0, "ListQueues", "{}").get("QueueUrls")).hasSize(1);
        assertThat(call(A1, "GetQueueUrl", "{\"QueueName\":\"orders\",\"QueueOwnerAWSAccountId\":\"" + A0 + "\"}")
                .get("QueueUrl").asText()).isEqualTo(url0);
        assertThat(error(A1, "GetQueueUrl", "{\"QueueName\":\"nope\",\"QueueOwnerAWSAccountId\":\"" + A0 + "\"}"))
                .isEqualTo("QueueDoesNotExist");
        // malformed: no queue named at all; any shard gives the same answer
        assertThat(error(A1, "SendMessage", "{\"MessageBody\":\"x\"}")).isEqualTo("MissingRequiredParameterException");
    }

    @Test
    void moveTasksAreServedByTheSourceAccountsShard() throws Exception {
        String dlq = call(A1, "CreateQueue", "{\"QueueName\":\"dlq\"}").get("QueueUrl").asText();
        String dlqArn = "arn:aws:sqs:us-east-1:" + A1 + ":dlq";
        String src = call(A1, "CreateQueue", "{\"QueueName\":\"src\",\"Attributes\":{\"RedrivePolicy\":"
                + "\"{\\\"deadLetterTargetArn\\\":\\\"" + dlqArn + "\\\",\\\"maxReceiveCount\\\":1}\"}}")
                .get("QueueUrl").asText();
        call(A1, "SendMessage", "{\"QueueUrl\":\"" + src + "\",\"MessageBody\":\"poison\"}");
        call(A1, "ReceiveMessage", "{\"QueueUrl\":\"" + src + "\",\"VisibilityTimeout\":0}");
        call(A1, "ReceiveMessage", "{\"QueueUrl\":\"" + src + "\",\"VisibilityTimeout\":0}"); // moves it to the DLQ
        assertThat(call(A1, "GetQueueAttributes", "{\"QueueUrl\":\"" + dlq + "\",\"AttributeNames\":[\"All\"]}")
                .get("Attributes").get("ApproximateNumberOfMessages").asText()).isEqualTo("1");
        // the caller is of the other shard's account: the source ARN and the handle route the calls
        String handle = call(A0, "StartMessageMoveTask", "{\"SourceArn\":\"" + dlqArn
                + "\",\"MaxNumberOfMessagesPerSecond\":1}").get("TaskHandle").asText();
        assertThat(call(A0, "ListMessageMoveTasks", "{\"SourceArn\":\"" + dlqArn + "\"}").get("Results")).hasSize(1);
        assertThat(call(A0, "CancelMessageMoveTask", "{\"TaskHandle\":\"" + handle + "\"}").has("ApproximateNumberOfMessagesMoved"))
                .isTrue();
    }

    @Test
    void aCommandOnOneShardDoesNotWaitForAnother() throws Exception {
        String url0 = call(A0, "CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
        String url1 = call(A1, "CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
        Shard blocked = shardOf(A0);
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        blocked.commands.submit(() -> {
            busy.countDown();
            await(release);
        });
        assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
        try {
            CompletableFuture<ObjectNode> onBlocked = invoke(A0, "SendMessage",
                    "{\"QueueUrl\":\"" + url0 + "\",\"MessageBody\":\"waits\"}");
            ObjectNode other = invoke(A1, "SendMessage", "{\"QueueUrl\":\"" + url1 + "\",\"MessageBody\":\"runs\"}")
                    .get(5, TimeUnit.SECONDS);
            assertThat(other.get("MessageId").asText()).isNotEmpty();
            assertThat(onBlocked).as("shard 0's engine thread is still busy").isNotDone();
            release.countDown();
            assertThat(onBlocked.get(5, TimeUnit.SECONDS).get("MessageId").asText()).isNotEmpty();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aFailedWriteStopsEveryShardUntilAllAreReloaded() throws Exception {
        String url0 = call(A0, "CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
        String url1 = call(A1, "CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
        call(A1, "SendMessage", "{\"QueueUrl\":\"" + url1 + "\",\"MessageBody\":\"kept\"}");
        store.fillDisk();
        assertThat(error(A0, "SendMessage", "{\"QueueUrl\":\"" + url0 + "\",\"MessageBody\":\"lost\"}"))
                .isEqualTo("ServiceUnavailable");
        // shard 1 wrote nothing, yet the fence is the store's: it refuses too until recovery
        assertThat(error(A1, "SendMessage", "{\"QueueUrl\":\"" + url1 + "\",\"MessageBody\":\"refused\"}"))
                .isEqualTo("ServiceUnavailable");
        store.freeDisk();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ObjectNode counts = null;
        while (counts == null) {
            try {
                counts = call(A0, "GetQueueAttributes", "{\"QueueUrl\":\"" + url0 + "\",\"AttributeNames\":[\"All\"]}");
            } catch (AssertionError stillRecovering) {
                if (System.nanoTime() > deadline) {
                    throw stillRecovering;
                }
                Thread.sleep(20);
            }
        }
        assertThat(counts.get("Attributes").get("ApproximateNumberOfMessages").asText()).isEqualTo("0");
        assertThat(call(A1, "ReceiveMessage", "{\"QueueUrl\":\"" + url1 + "\"}").get("Messages").get(0)
                .get("Body").asText()).isEqualTo("kept");
    }

    private Shard shardOf(String account) throws Exception {
        java.lang.reflect.Field f = DefaultSqsService.class.getDeclaredField("shards");
        f.setAccessible(true);
        return ((Shard[]) f.get(service))[EngineShard.of(account, 2)];
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private CompletableFuture<ObjectNode> invoke(String account, String action, String json) {
        CallContext context = new CallContext(account, "us-east-1", "http://h:1", null, "r");
        return service.invoke(context, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    private ObjectNode call(String account, String action, String json) throws Exception {
        try {
            return invoke(account, action, json).get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(action + " failed: " + e.getCause(), e.getCause());
        }
    }

    private String error(String account, String action, String json) throws Exception {
        try {
            return "answered " + invoke(account, action, json).get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause() instanceof ApiException api ? api.errorType() : String.valueOf(e.getCause());
        } catch (TimeoutException e) {
            return "no answer";
        }
    }
}
