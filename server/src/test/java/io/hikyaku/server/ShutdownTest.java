package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SqsService;
import io.hikyaku.api.SqsServices;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.server.http.Codecs;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A stop answers parked long polls at once (empty), lets writes in flight finish, then closes. */
class ShutdownTest {

    /** The real service, counting the receives handed to it. */
    static final class CountingService implements SqsService {
        final SqsService real;
        final AtomicInteger receives = new AtomicInteger();

        CountingService(SqsService real) {
            this.real = real;
        }

        @Override
        public CompletableFuture<ObjectNode> invoke(CallContext context, ApiRequest request) {
            CompletableFuture<ObjectNode> out = real.invoke(context, request);
            if (request.action().equals("ReceiveMessage")) {
                receives.incrementAndGet();
            }
            return out;
        }

        @Override
        public int beginStop() {
            return real.beginStop();
        }

        @Override
        public void close() {
            real.close();
        }
    }

    @Test
    void parkedLongPollsAreAnsweredEmptyAtOnceWhenTheStopBegins() throws Exception {
        // A clock that never moves: only the stop can end these 20-second waits.
        Clock frozen = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
        CountingService service = new CountingService(SqsServices.create(new MemoryStore(), frozen));
        HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withClock(frozen), Codecs.standard(), service);
        List<RawHttp> polls = new ArrayList<>();
        try {
            String url;
            try (RawHttp http = new RawHttp(server.port())) {
                http.send(RawHttp.jsonCall("CreateQueue", "{\"QueueName\":\"parked\"}"));
                url = FakeCodec.JSON.readTree(http.read().body()).path("QueueUrl").asText();
            }
            for (int i = 0; i < 3; i++) {
                RawHttp poll = new RawHttp(server.port());
                poll.send(RawHttp.jsonCall("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"WaitTimeSeconds\":20}"));
                polls.add(poll);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (service.receives.get() < 3 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // until the three receives reached the service
            }
            assertThat(service.receives.get()).isEqualTo(3);
            // The engine runs calls in order: once this one is answered, the receives before it are parked.
            service.invoke(new CallContext("000000000000", "us-east-1", "http://x", null, "sync"),
                    new ApiRequest("ListQueues", FakeCodec.JSON.createObjectNode(), WireProtocol.JSON, false, "/"))
                    .get(10, TimeUnit.SECONDS);

            long start = System.nanoTime();
            server.close();
            long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            for (RawHttp poll : polls) {
                RawHttp.Response r = poll.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("{}"); // an empty receive, as when a wait ends
            }
            // Before, the stop waited out its whole 5 s grace period for them; now nothing holds it up.
            assertThat(stopMillis).isLessThan(5_000);
        } finally {
            for (RawHttp poll : polls) {
                poll.close();
            }
            server.close();
        }
    }

    @Test
    void aWriteInFlightWhenTheStopBeginsIsStillAnswered() throws Exception {
        FakeService service = new FakeService();
        CompletableFuture<ObjectNode> send = service.park("SendMessage");
        HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY),
                new FakeCodec(), service);
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("SendMessage", "{\"MessageBody\":\"x\"}"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!service.actions().contains("SendMessage") && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            // Its store write completes only after the stop has begun (on another thread, as a syncer would).
            service.onBeginStop = () -> CompletableFuture.runAsync(
                    () -> send.complete(FakeCodec.JSON.createObjectNode().put("MessageId", "m-1")));
            server.close();
            RawHttp.Response r = http.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).contains("m-1");
            assertThat(service.closed).isTrue();
        }
    }
}
