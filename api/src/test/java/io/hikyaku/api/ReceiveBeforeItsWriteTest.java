package io.hikyaku.api;

import static io.hikyaku.api.FailingDiskService.errorType;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A standard queue's receive is answered once what made its messages receivable is durable, not its
 * own write (in flight, receive count): docs/operations.md, "What waits for the fsync". Its failure cases, over a
 * {@link FaultInjectingStore} whose {@link MemoryStore} plays the disk (a "crash" is a new service over
 * the same disk): on a standard queue a receive whose write is lost at worst lets its messages come
 * back early and its handle still deletes; a delete is durable before its answer and never comes back;
 * a receive never answers with a message whose send, or the visibility change that made it visible, is
 * not durable; a FIFO receive still waits for its own write.
 */
class ReceiveBeforeItsWriteTest {

    private static final CallContext CONTEXT = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    private final MemoryStore disk = new MemoryStore();
    private final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    private FaultInjectingStore store = new FaultInjectingStore(disk);
    private SqsService service = SqsServices.create(store, clock);

    @AfterEach
    void close() {
        service.close();
    }

    @Test
    void aReceiveIsAnsweredWhileItsOwnWriteIsNotYetDurable() throws Exception {
        String url = create("q", "{}");
        await(call("SendMessage", send(url, "a", "")));
        store.holdOutcomes();
        CompletableFuture<ObjectNode> received = call("ReceiveMessage", receive(url));
        assertThat(received.get(5, TimeUnit.SECONDS).get("Messages").get(0).get("Body").asText()).isEqualTo("a");
        CompletableFuture<ObjectNode> counted = call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}");
        awaitInvoked();
        assertThat(counted).as("a read still waits for every write before it, the receive's too").isNotDone();
        store.releaseOutcomes();
        assertThat(counted.get(5, TimeUnit.SECONDS).get("Attributes").get("ApproximateNumberOfMessagesNotVisible").asText())
                .isEqualTo("1");
    }

    @Test
    void aReceiveWaitsForTheSendOfItsMessageAndFailsWithIt() throws Exception {
        String url = create("q", "{}");
        store.holdOutcomes();
        CompletableFuture<ObjectNode> sent = call("SendMessage", send(url, "a", ""));
        CompletableFuture<ObjectNode> received = call("ReceiveMessage", receive(url));
        awaitInvoked();
        assertThat(received).as("its message's send is not durable yet").isNotDone();
        store.releaseOutcomes();
        assertThat(received.get(5, TimeUnit.SECONDS).get("Messages").get(0).get("Body").asText()).isEqualTo("a");
        sent.get(5, TimeUnit.SECONDS);

        // the send's write fails after the engine took it: a receive that saw it in memory fails too
        store.holdOutcomes();
        store.failNextWrites(1);
        CompletableFuture<ObjectNode> phantomSend = call("SendMessage", send(url, "b", ""));
        CompletableFuture<ObjectNode> phantomReceive = call("ReceiveMessage", receive(url));
        awaitInvoked();
        assertThat(phantomReceive).isNotDone();
        store.releaseOutcomes();
        assertThat(errorType(phantomSend)).isEqualTo("ServiceUnavailable");
        assertThat(errorType(phantomReceive)).as("never a message whose send failed").isEqualTo("ServiceUnavailable");
        clock.advance(Duration.ofSeconds(31));
        assertThat(bodies(awaitRecovered(() -> call("ReceiveMessage", receive(url))))).containsExactly("a");
    }

    @Test
    void aParkedReceiveWokenByASendWaitsForThatSend() throws Exception {
        String url = create("q", "{}");
        CompletableFuture<ObjectNode> parked = call("ReceiveMessage",
                "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":10,\"VisibilityTimeout\":30}");
        awaitInvoked();
        store.holdOutcomes();
        CompletableFuture<ObjectNode> sent = call("SendMessage", send(url, "a", ""));
        awaitInvoked();
        assertThat(parked).as("woken, but the send is not durable").isNotDone();
        store.releaseOutcomes();
        sent.get(5, TimeUnit.SECONDS);
        assertThat(bodies(parked.get(5, TimeUnit.SECONDS))).containsExactly("a");
    }

    @Test
    void aLostReceiveRedeliversEarlyAndItsHandleStillDeletesOnAStandardQueue() throws Exception {
        String url = create("q", "{}");
        await(call("SendMessage", send(url, "a", "")));
        String lostHandle = receiveLost(url, "a");

        // the state is reloaded from the disk: the message is visible again at once (early), with a new handle
        ObjectNode again = awaitRecovered(() -> call("ReceiveMessage", receive(url)));
        assertThat(bodies(again)).containsExactly("a");
        assertThat(await(call("DeleteMessage", delete(url, lostHandle)))).as("any handle of a standard message deletes it").isNotNull();

        restart();
        clock.advance(Duration.ofSeconds(31));
        assertThat(await(call("ReceiveMessage", receive(url))).has("Messages")).as("a deleted message never comes back").isFalse();
    }

    @Test
    void aReceiveWaitsForAVisibilityChangeThatMadeItsMessageVisible() throws Exception {
        String url = create("q", "{}");
        await(call("SendMessage", send(url, "a", "")));
        String handle = await(call("ReceiveMessage", receive(url))).get("Messages").get(0).get("ReceiptHandle").asText();
        awaitSettled(url);
        // the change's write fails once its outcome is known; a receive that saw the message visible fails with it
        store.holdOutcomes();
        store.failNextWrites(1);
        CompletableFuture<ObjectNode> changed = call("ChangeMessageVisibility",
                "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\",\"VisibilityTimeout\":0}");
        CompletableFuture<ObjectNode> received = call("ReceiveMessage", receive(url));
        awaitInvoked();
        assertThat(received).isNotDone();
        store.releaseOutcomes();
        assertThat(errorType(changed)).isEqualTo("ServiceUnavailable");
        assertThat(errorType(received)).as("only a change that failed made it visible").isEqualTo("ServiceUnavailable");
        // still in flight under the first handle, which deletes it
        assertThat(awaitRecovered(() -> call("DeleteMessage", delete(url, handle)))).isNotNull();
    }

    @Test
    void aFifoReceiveStillWaitsForItsOwnWriteAndALostOneChangesNothing() throws Exception {
        String url = create("q.fifo", "{\"FifoQueue\":\"true\"}");
        await(call("SendMessage", send(url, "a1", ",\"MessageGroupId\":\"g\",\"MessageDeduplicationId\":\"a1\"")));
        await(call("SendMessage", send(url, "a2", ",\"MessageGroupId\":\"g\",\"MessageDeduplicationId\":\"a2\"")));
        store.holdOutcomes();
        store.failNextWrites(1);
        CompletableFuture<ObjectNode> received = call("ReceiveMessage", receive(url));
        awaitInvoked();
        assertThat(received).as("its write unlocks and locks groups: a FIFO receive waits for it").isNotDone();
        store.releaseOutcomes();
        assertThat(errorType(received)).isEqualTo("ServiceUnavailable");
        ObjectNode again = awaitRecovered(() -> call("ReceiveMessage", receive(url)));
        assertThat(bodies(again)).as("the group in order, nothing taken").containsExactly("a1", "a2");
    }

    @Test
    void aDeleteAfterAnUnsyncedReceiveIsDurableBeforeItsAnswerAndNeverComesBack() throws Exception {
        String url = create("q", "{}");
        await(call("SendMessage", send(url, "a", "")));
        store.holdOutcomes();
        ObjectNode got = call("ReceiveMessage", receive(url)).get(5, TimeUnit.SECONDS);
        CompletableFuture<ObjectNode> deleted = call("DeleteMessage", delete(url, got.get("Messages").get(0).get("ReceiptHandle").asText()));
        awaitInvoked();
        assertThat(deleted).as("a delete waits for its write (and so for the receive's before it)").isNotDone();
        store.releaseOutcomes();
        deleted.get(5, TimeUnit.SECONDS);

        restart();
        clock.advance(Duration.ofSeconds(31));
        assertThat(await(call("ReceiveMessage", receive(url))).has("Messages")).isFalse();
    }

    /**
     * Receives {@code expected} with a write that is lost (refused once its outcome is known, as a
     * failed WAL append or a crash before the fsync would lose it): the answer comes first.
     */
    private String receiveLost(String url, String... expected) throws Exception {
        store.holdOutcomes();
        store.failNextWrites(1);
        ObjectNode got = call("ReceiveMessage", receive(url)).get(5, TimeUnit.SECONDS);
        assertThat(bodies(got)).as("answered: its messages' sends are durable").containsExactly(expected);
        store.releaseOutcomes();
        return got.get("Messages").get(0).get("ReceiptHandle").asText();
    }

    /** Returns once every write made so far has settled (a read waits for them). */
    private void awaitSettled(String url) throws Exception {
        awaitRecovered(() -> call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\"}"));
    }

    private void restart() {
        service.close();
        store = new FaultInjectingStore(disk);
        service = SqsServices.create(store, clock);
    }

    private static java.util.List<String> bodies(ObjectNode answer) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (answer.has("Messages")) {
            answer.get("Messages").forEach(m -> out.add(m.get("Body").asText()));
        }
        return out;
    }

    private String create(String name, String attributes) {
        return await(call("CreateQueue", "{\"QueueName\":\"" + name + "\",\"Attributes\":" + attributes + "}"))
                .get("QueueUrl").asText();
    }

    private static String send(String url, String body, String extra) {
        return "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + body + "\"" + extra + "}";
    }

    private static String receive(String url) {
        return "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10,\"VisibilityTimeout\":30}";
    }

    private static String delete(String url, String handle) {
        return "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + handle + "\"}";
    }

    private CompletableFuture<ObjectNode> call(String action, String json) {
        return service.invoke(CONTEXT, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    private static ObjectNode await(CompletableFuture<ObjectNode> call) {
        return ServiceHarness.await(call);
    }

    private void awaitInvoked() {
        ((DefaultSqsService) service).awaitInvoked();
    }

    /** Retries {@code call} while it gets 503 (the store recovering), for at most 10 s. */
    private static ObjectNode awaitRecovered(java.util.function.Supplier<CompletableFuture<ObjectNode>> call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return call.get().get(5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof ApiException api) || !api.errorType().equals("ServiceUnavailable")
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }
}
