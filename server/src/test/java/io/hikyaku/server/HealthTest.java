package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.server.http.CallContextFactory;
import io.hikyaku.server.http.RequestDispatcher;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** /health and /health/ready follow the service's storage problem (a failed write until the reload) and the shutdown. */
class HealthTest {

    final AtomicBoolean serving = new AtomicBoolean(true);
    /** What the service reports (SqsService.storageProblem: the fence's cause, from a failed write to the reload). */
    final AtomicReference<String> storageProblem = new AtomicReference<>();

    final RequestDispatcher dispatcher = new RequestDispatcher(new FakeCodec(), new FakeService(),
            new CallContextFactory("000000000000", "us-east-1", null, "127.0.0.1", () -> 9324), serving::get,
            storageProblem::get, null);

    HttpResponseData get(String path) {
        return dispatcher.dispatch(new HttpRequestData("GET", path, "", Map.of(), new byte[0]), "r", Runnable::run).response().join();
    }

    static String body(HttpResponseData r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void aStorageProblemMakesTheServerDegradedUntilItClears() {
        assertThat(get("/health").status()).isEqualTo(200);
        assertThat(body(get("/health"))).isEqualTo("{\"status\":\"ok\"}");

        storageProblem.set("No space left on device");
        HttpResponseData health = get("/health");
        assertThat(health.status()).isEqualTo(200); // alive: restarting would not help
        assertThat(body(health)).contains("\"status\":\"degraded\"").contains("No space left on device");
        assertThat(get("/health/ready").status()).isEqualTo(503);

        storageProblem.set(null); // the recovery reloaded: commands pass again
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
