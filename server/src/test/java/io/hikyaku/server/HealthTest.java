package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.server.http.CallContextFactory;
import io.hikyaku.server.http.RequestDispatcher;
import io.hikyaku.server.storage.StoreHealth;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** /health and /health/ready follow the store's write failures and the shutdown. */
class HealthTest {

    final AtomicBoolean diskFull = new AtomicBoolean();
    final AtomicBoolean serving = new AtomicBoolean(true);
    final StoreHealth store = new StoreHealth(new FlakyStore());

    /** A memory store whose writes fail while {@link #diskFull} is set. */
    final class FlakyStore extends ForwardingStore {
        final MemoryStore memory = new MemoryStore();

        @Override
        protected Store delegate() {
            return memory;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            return diskFull.get() ? CompletableFuture.failedFuture(new StoreException("No space left on device")) : memory.write(batch);
        }
    }

    final RequestDispatcher dispatcher = new RequestDispatcher(new FakeCodec(), new FakeService(),
            new CallContextFactory("000000000000", "us-east-1", null, "127.0.0.1", () -> 9324), serving::get, store::problem, null);

    HttpResponseData get(String path) {
        return dispatcher.dispatch(new HttpRequestData("GET", path, "", Map.of(), new byte[0]), "r", Runnable::run).response().join();
    }

    static String body(HttpResponseData r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    static StoreBatch aBatch() {
        StoreBatch batch = new StoreBatch();
        batch.put(Keyspace.META, new byte[] {1}, new byte[] {2});
        return batch;
    }

    @Test
    void failingWritesMakeTheServerDegradedUntilAWriteSucceeds() {
        assertThat(get("/health").status()).isEqualTo(200);
        assertThat(body(get("/health"))).isEqualTo("{\"status\":\"ok\"}");

        diskFull.set(true);
        assertThat(store.write(aBatch())).isCompletedExceptionally();
        HttpResponseData health = get("/health");
        assertThat(health.status()).isEqualTo(200); // alive: restarting would not help
        assertThat(body(health)).contains("\"status\":\"degraded\"").contains("No space left on device");
        assertThat(get("/health/ready").status()).isEqualTo(503);

        diskFull.set(false);
        assertThat(store.write(aBatch())).isCompleted();
        assertThat(body(get("/health"))).isEqualTo("{\"status\":\"ok\"}");
        assertThat(get("/health/ready").status()).isEqualTo(200);
    }

    @Test
    void stoppingIs503OnBoth() {
        serving.set(false);
        assertThat(get("/health").status()).isEqualTo(503);
        assertThat(get("/health/ready").status()).isEqualTo(503);
    }

    @Test
    void adminPathsWithoutAnAdminEndpointAre404() {
        HttpResponseData r = dispatcher.dispatch(new HttpRequestData("POST", "/_hikyaku/backup", "", Map.of(), new byte[0]),
                "r", Runnable::run, true).response().join();
        assertThat(r.status()).isEqualTo(404);
    }
}
