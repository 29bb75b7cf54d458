package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.IndexUsage;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's form of the service holds its timers until it listens: a stored backlog's page-ins
 * and counting do not run during the start-up, and run once {@link SqsService#startTimers()} is called.
 */
class HeldTimersTest {

    private static final CallContext CONTEXT = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");
    private static final int WINDOW = 2048;
    private static final int STORED = 8000;

    private final MutableClock clock = new MutableClock(java.time.Instant.ofEpochMilli(1_700_000_000_000L));
    private final MemoryStore disk = new MemoryStore();
    private DefaultSqsService service;

    @AfterEach
    void close() {
        if (service != null) {
            service.close();
        }
    }

    private DefaultSqsService open(boolean holdTimers) {
        return new DefaultSqsService(new FaultInjectingStore(disk), clock, CommandQueue.CAPACITY, true, Long.MAX_VALUE,
                WINDOW, line -> { }, 1, holdTimers);
    }

    private ObjectNode call(String action, String json) {
        return ServiceHarness.await(service.invoke(CONTEXT,
                new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/")));
    }

    @Test
    void aBacklogIsPagedInAndCountedOnlyOnceTheTimersStart() throws Exception {
        service = open(false);
        String url = call("CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
        for (int i = 0; i < STORED; i += 10) {
            StringBuilder batch = new StringBuilder("{\"QueueUrl\":\"" + url + "\",\"Entries\":[");
            for (int j = 0; j < 10; j++) {
                batch.append(j == 0 ? "" : ",").append("{\"Id\":\"e").append(j).append("\",\"MessageBody\":\"m")
                        .append(i + j).append("\"}");
            }
            call("SendMessageBatch", batch.append("]}").toString());
        }
        service.close(); // a crash: the store object goes, the disk stays

        service = open(true);
        IndexUsage loaded = service.indexUsage();
        assertThat(loaded.indexedMessages()).isLessThan(WINDOW); // the load read one page of the window
        Thread.sleep(300);
        call("ListQueues", "{}"); // touches no queue: no page-in on its behalf
        assertThat(service.indexUsage()).isEqualTo(loaded); // nothing ran in the background meanwhile

        service.startTimers();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (service.indexUsage().spilledMessages() < STORED - WINDOW && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(service.indexUsage().indexedMessages()).isEqualTo(WINDOW); // the window filled
        assertThat(service.indexUsage().spilledMessages()).isEqualTo(STORED - WINDOW); // the backlog counted
        assertThat(call("GetQueueAttributes", "{\"QueueUrl\":\"" + url
                + "\",\"AttributeNames\":[\"ApproximateNumberOfMessages\"]}").get("Attributes")
                .get("ApproximateNumberOfMessages").asText()).isEqualTo(String.valueOf(STORED));
        service.startTimers(); // again: nothing
    }
}
