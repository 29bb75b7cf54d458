package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueSnapshot;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Fail-stop for bugs (issue 36): an unexpected exception from the engine's apply may leave memory
 * half-changed, so the shard is fenced and reloaded from the store, never left serving what the
 * disk does not have.
 */
class BugInApplyFailStopTest {

    /** A memory store that, while dropping, loses writes but reports them done: memory gets ahead of the disk. */
    static final class DroppingStore extends ForwardingStore {
        final MemoryStore memory = new MemoryStore();
        volatile boolean dropping;

        @Override
        protected Store delegate() {
            return memory;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            return dropping ? CompletableFuture.completedFuture(null) : memory.write(batch);
        }
    }

    private final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    private final DroppingStore store = new DroppingStore();

    @Test
    void aBugInApplyFencesReloadsAndTheNextRequestSeesExactlyTheStoresState() throws Exception {
        try (DefaultSqsService service = new DefaultSqsService(store, clock)) {
            String url = call(service, "CreateQueue", "{\"QueueName\":\"q\"}").get("QueueUrl").asText();
            call(service, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"kept\"}");
            // The bug: applying the send of "boom" changes memory, its write is lost, then apply throws.
            service.afterApply((command, engine) -> {
                if (command instanceof Command.SendMessage send && send.message().body().equals("boom")) {
                    store.dropping = false;
                    throw new IllegalStateException("injected bug in apply");
                }
            });
            store.dropping = true;
            ApiException bug = error(invoke(service, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"boom\"}"));
            assertThat(bug.errorType()).isEqualTo("InternalError"); // outcome unknown for the failing call

            // Until the reload, calls get 503; then the next one succeeds.
            ObjectNode after = untilServed(service, "SendMessage", "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"after\"}");
            assertThat(after.has("MessageId")).isTrue();
            assertThat(service.engineLoads()).isEqualTo(2); // loaded at start, reloaded once

            // The served state is the store's: "boom" (only in the old engine's memory) is gone.
            List<String> bodies = new ArrayList<>();
            for (JsonNode m : call(service, "ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10}")
                    .path("Messages")) {
                bodies.add(m.get("Body").asText());
            }
            assertThat(bodies).containsExactlyInAnyOrder("kept", "after");
            List<QueueSnapshot> served = service.queueSnapshots();
            List<QueueSnapshot> stored = new QueueEngine(store.memory, DefaultSqsService.DEFAULT_REGION, clock.millis()).snapshot();
            assertThat(served).hasSize(1);
            assertThat(stored).hasSize(1);
            QueueSnapshot s = served.get(0);
            QueueSnapshot d = stored.get(0);
            assertThat(s.visible() + s.notVisible() + s.delayed()).isEqualTo(2).isEqualTo(d.visible() + d.notVisible() + d.delayed());
        }
    }

    @Test
    void aRefusalIsNoBugAndFencesNothing() throws Exception {
        try (DefaultSqsService service = new DefaultSqsService(store, clock)) {
            ApiException refused = error(invoke(service, "SendMessage",
                    "{\"QueueUrl\":\"http://localhost:9324/000000000000/missing\",\"MessageBody\":\"x\"}"));
            assertThat(refused.errorType()).isEqualTo("QueueDoesNotExist");
            call(service, "CreateQueue", "{\"QueueName\":\"q\"}");
            assertThat(service.engineLoads()).isEqualTo(1);
        }
    }

    @Test
    void theEngineIsReachedOnlyFromItsApplierThread() throws Exception {
        try (DefaultSqsService service = new DefaultSqsService(store, clock)) {
            long before = EngineThreadCheck.violations();
            Shard shard = service.shard(0);
            assertThatThrownBy(() -> shard.gate.engine()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not its shard's applier");
            assertThatThrownBy(() -> shard.gate.read((engine, now) -> engine.snapshot())).isInstanceOf(IllegalStateException.class);
            assertThat(EngineThreadCheck.violations()).isEqualTo(before + 2);
            assertThat(shard.call(() -> shard.gate.engine().snapshot()).get(5, TimeUnit.SECONDS)).isEmpty();
            assertThat(EngineThreadCheck.violations()).isEqualTo(before + 2);
        }
    }

    private static CompletableFuture<ObjectNode> invoke(DefaultSqsService service, String action, String json) {
        return service.invoke(CommandSequencingTest.CONTEXT,
                new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
    }

    private static ObjectNode call(DefaultSqsService service, String action, String json) {
        return ServiceHarness.await(invoke(service, action, json));
    }

    private static ApiException error(CompletableFuture<ObjectNode> f) {
        return ServiceHarness.awaitError(f);
    }

    /** Calls until the answer is not 503 (the recovery reloads within a second here); fails after 10 s. */
    private static ObjectNode untilServed(DefaultSqsService service, String action, String json) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return invoke(service, action, json).get(5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                ApiException api = (ApiException) e.getCause();
                assertThat(api.errorType()).isEqualTo("ServiceUnavailable");
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("still refused after 10 s");
                }
                Thread.sleep(20);
            }
        }
    }
}
