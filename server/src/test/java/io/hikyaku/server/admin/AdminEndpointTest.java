package io.hikyaku.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminEndpointTest {

    @TempDir
    Path dir;

    final List<Path> checkpoints = new ArrayList<>();
    final AdminEndpoint admin = new AdminEndpoint("secret", checkpoints::add, Runnable::run);

    static HttpRequestData request(String method, String path, String token, String body) {
        Map<String, String> headers = token == null ? Map.of() : Map.of(AdminEndpoint.TOKEN_HEADER, token);
        return new HttpRequestData(method, path, "", headers, body.getBytes(StandardCharsets.UTF_8));
    }

    HttpResponseData answer(HttpRequestData request, boolean fromThisHost) {
        return admin.handle(request, fromThisHost).join();
    }

    String target() {
        return "{\"target\":\"" + dir.resolve("b") + "\"}";
    }

    @Test
    void aLocalRequestWithTheTokenCheckpoints() {
        HttpResponseData r = answer(request("POST", AdminEndpoint.BACKUP_PATH, "secret", target()), true);
        assertThat(r.status()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("\"status\":\"ok\"");
        assertThat(checkpoints).containsExactly(dir.resolve("b"));
    }

    @Test
    void remotePeersAndWrongTokensAreRefused() {
        assertThat(answer(request("POST", AdminEndpoint.BACKUP_PATH, "secret", target()), false).status()).isEqualTo(403);
        assertThat(answer(request("POST", AdminEndpoint.BACKUP_PATH, "guess", target()), true).status()).isEqualTo(403);
        assertThat(answer(request("POST", AdminEndpoint.BACKUP_PATH, null, target()), true).status()).isEqualTo(403);
        assertThat(checkpoints).isEmpty();
    }

    @Test
    void badRequestsAreRefusedWithoutACheckpoint() {
        assertThat(answer(request("GET", AdminEndpoint.BACKUP_PATH, "secret", ""), true).status()).isEqualTo(405);
        assertThat(answer(request("POST", "/_hikyaku/other", "secret", target()), true).status()).isEqualTo(404);
        assertThat(answer(request("POST", AdminEndpoint.BACKUP_PATH, "secret", "{\"target\":\"relative/dir\"}"), true).status()).isEqualTo(400);
        assertThat(answer(request("POST", AdminEndpoint.BACKUP_PATH, "secret", "not json"), true).status()).isEqualTo(400);
        assertThat(answer(request("POST", AdminEndpoint.BACKUP_PATH, "secret", "{\"target\":\"" + dir + "\"}"), true).status()).isEqualTo(409);
        assertThat(checkpoints).isEmpty();
    }

    @Test
    void aFailedCheckpointIsA500WithTheReason() {
        AdminEndpoint failing = new AdminEndpoint("secret", t -> { throw new IllegalStateException("disk full"); }, Runnable::run);
        HttpResponseData r = failing.handle(request("POST", AdminEndpoint.BACKUP_PATH, "secret", target()), true).join();
        assertThat(r.status()).isEqualTo(500);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("disk full");
    }

    @Test
    void theAdminFileIsPrivateAndOnlyItsWriterRemovesIt() throws Exception {
        AdminFile mine = new AdminFile("http://127.0.0.1:1", "t1", ProcessHandle.current().pid());
        mine.write(dir);
        assertThat(AdminFile.read(dir)).contains(mine);
        assertThat(mine.ownerAlive()).isTrue();
        new AdminFile("http://127.0.0.1:2", "t2", 1).remove(dir); // another server's token: left alone
        assertThat(AdminFile.in(dir)).exists();
        mine.remove(dir);
        assertThat(AdminFile.in(dir)).doesNotExist();
        assertThat(AdminFile.read(dir)).isEmpty();
    }
}
