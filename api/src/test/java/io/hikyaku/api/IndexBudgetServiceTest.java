package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.EngineEvents;
import io.hikyaku.engine.IndexUsage;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The index budget through the service: the memory report's log line, the usage metrics read, and
 * an engine reloaded from the store after a storage failure (fail-stop) keeping the budget and the
 * event listener of the engine it replaces.
 */
class IndexBudgetServiceTest {

    private static final CallContext CONTEXT = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    private final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryStore());
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final DefaultSqsService service = new DefaultSqsService(store, clock, true, 100, lines::add);

    @AfterEach
    void close() {
        service.close();
    }

    private CompletableFuture<ObjectNode> start(String action, String json) {
        CompletableFuture<ObjectNode> f = service.invoke(CONTEXT,
                new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
        service.awaitInvoked();
        return f;
    }

    private ObjectNode call(String action, String json) {
        return ServiceHarness.await(start(action, json));
    }

    private void send(String url, String body, String fifoExtra) {
        call("SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + body + "\"" + fifoExtra + "}");
    }

    /** Until a call succeeds again (the recovery thread reloads the engine after a short back-off). */
    private void awaitServing() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                start("ListQueues", "{}").get(20, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                assertThat(System.nanoTime()).as("recovered in time: " + e.getCause()).isLessThan(deadline);
                Thread.sleep(10);
            }
        }
    }

    @Test
    void aReloadedEngineKeepsTheBudgetAndTheEventListener() throws Exception {
        AtomicInteger deduplicated = new AtomicInteger();
        service.setEngineEvents(new EngineEvents() {
            @Override
            public void deduplicated(QueueRef queue) {
                deduplicated.incrementAndGet();
            }
        });
        String q = call("CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
        String f = call("CreateQueue", "{\"QueueName\":\"f.fifo\",\"Attributes\":{\"FifoQueue\":\"true\"}}")
                .get("QueueUrl").asText();
        for (int i = 0; i < 150; i++) {
            send(q, "m" + i, "");
        }
        assertThat(service.indexUsage()).isEqualTo(new IndexUsage(100, 100, 50, 0));
        assertThat(lines).anyMatch(l -> l.startsWith("memory: 1 messages are kept on disk only (past a queue's index window of 65536 messages or the in-memory index budget of 100 entries)"));

        store.failNextWrites(1);
        assertThat(ServiceHarness.awaitError(start("SendMessage", "{\"QueueUrl\":\"" + q + "\",\"MessageBody\":\"lost\"}"))
                .errorType()).isEqualTo("ServiceUnavailable");
        awaitServing();

        // the engine loaded from the store has the same budget: 100 indexed, the rest spilled again
        assertThat(service.indexUsage()).isEqualTo(new IndexUsage(100, 100, 50, 0));
        assertThat(call("GetQueueAttributes", "{\"QueueUrl\":\"" + q + "\",\"AttributeNames\":[\"ApproximateNumberOfMessages\"]}")
                .get("Attributes").get("ApproximateNumberOfMessages").asText()).isEqualTo("150");
        // and reports to the same listener
        String dedup = ",\"MessageGroupId\":\"g\",\"MessageDeduplicationId\":\"d1\"";
        send(f, "x", dedup);
        send(f, "x", dedup);
        assertThat(deduplicated).hasValue(1);
        assertThat(service.indexUsage().dedupEntries()).isEqualTo(1);
    }
}
