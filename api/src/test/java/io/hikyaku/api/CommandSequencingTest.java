package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Calls run on the one engine thread, never on the caller's, in the order they were made; a full
 * command queue answers RequestThrottled instead of growing; the engine thread stamps time, which
 * never goes back even when the wall clock does.
 */
class CommandSequencingTest {

    /** A clock that, once armed, stops the engine thread in its next stamp until released. */
    static final class HoldingClock extends Clock {
        final MutableClock time = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
        volatile CountDownLatch entered;
        volatile CountDownLatch release;

        void arm() {
            entered = new CountDownLatch(1);
            release = new CountDownLatch(1);
        }

        @Override
        public long millis() {
            CountDownLatch r = release;
            // Only a client call's stamp is held (one dispatched by the shard), never a host task's (a
            // timer round on the applier reads the clock too): the held call is then surely the first.
            if (r != null && Thread.currentThread().getName().equals("hikyaku-engine") && inClientCall()) {
                entered.countDown();
                try {
                    r.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return time.millis();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        private static boolean inClientCall() {
            return StackWalker.getInstance().walk(frames -> frames.anyMatch(
                    f -> f.getClassName().equals("io.hikyaku.api.Shard") && f.getMethodName().equals("dispatch")));
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    static final CallContext CONTEXT = new CallContext("000000000000", "us-east-1", "http://localhost:9324", null, "r");

    static CompletableFuture<ObjectNode> invoke(SqsService s, String action, String json) {
        return s.invoke(CONTEXT, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    @Test
    void aFullCommandQueueAnswersRequestThrottledAndTheQueuedCallsStillRun() throws Exception {
        HoldingClock clock = new HoldingClock();
        try (DefaultSqsService service = new DefaultSqsService(new MemoryStore(), clock, 1)) {
            clock.arm();
            CompletableFuture<ObjectNode> running = invoke(service, "CreateQueue", "{\"QueueName\":\"a\"}");
            assertThat(clock.entered.await(10, TimeUnit.SECONDS)).isTrue(); // the engine thread holds it
            CompletableFuture<ObjectNode> queued = invoke(service, "CreateQueue", "{\"QueueName\":\"b\"}");
            CompletableFuture<ObjectNode> refused = invoke(service, "ListQueues", "{}");

            ApiException throttled = ServiceHarness.awaitError(refused);
            assertThat(throttled.errorType()).isEqualTo("RequestThrottled");
            assertThat(running).isNotDone(); // the caller was not held up by the busy engine

            clock.release.countDown();
            clock.release = null;
            assertThat(ServiceHarness.await(running).get("QueueUrl").asText()).endsWith("/a");
            assertThat(ServiceHarness.await(queued).get("QueueUrl").asText()).endsWith("/b");
            assertThat(ServiceHarness.await(invoke(service, "ListQueues", "{}")).get("QueueUrls")).hasSize(2);
        }
    }

    @Test
    void callsRunInTheOrderTheyWereMadeNotOnTheCallersThread() {
        try (ServiceHarness sqs = new ServiceHarness()) {
            String url = sqs.createQueue("order", null);
            List<CompletableFuture<ObjectNode>> sends = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                sends.add(invoke(sqs.service, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"m" + i + "\"}"));
            }
            List<String> seqs = new ArrayList<>();
            for (CompletableFuture<ObjectNode> f : sends) {
                seqs.add(ServiceHarness.await(f).get("MessageId").asText());
            }
            // Received in send order (a standard queue over one engine delivers in sequence order here).
            List<String> received = new ArrayList<>();
            while (received.size() < 200) {
                ObjectNode got = sqs.receive(url, "\"MaxNumberOfMessages\":10");
                got.get("Messages").forEach(m -> received.add(m.get("Body").asText()));
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                expected.add("m" + i);
            }
            assertThat(received).containsExactlyElementsOf(expected);
            assertThat(seqs).doesNotHaveDuplicates();
        }
    }

    @Test
    void aWallClockSteppedBackHoldsTheLastStampAndNoCommandFails() {
        try (ServiceHarness sqs = new ServiceHarness()) {
            String url = sqs.createQueue("clock", null);
            sqs.clock.advance(Duration.ofSeconds(10));
            sqs.send(url, "before");
            long stamped = sqs.clock.millis();
            sqs.clock.advance(Duration.ofSeconds(-7)); // NTP steps the clock back
            sqs.send(url, "after");
            ObjectNode got = sqs.receive(url, "\"MaxNumberOfMessages\":10,\"MessageSystemAttributeNames\":[\"SentTimestamp\"]");
            assertThat(got.get("Messages")).hasSize(2);
            got.get("Messages").forEach(m ->
                    assertThat(m.get("Attributes").get("SentTimestamp").asText()).isEqualTo(Long.toString(stamped)));
        }
    }
}
