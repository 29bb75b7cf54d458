package io.hikyaku.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** Asks a running server (found through its ADMIN file) for an online backup. */
public final class OnlineBackupClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private OnlineBackupClient() {}

    /** Thrown when nothing listens at the ADMIN file's address (a stale file after a crash). */
    public static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Requests a checkpoint into {@code target} (absolute, must not exist) and waits for it.
     *
     * @return how long the server took, in milliseconds
     * @throws Unreachable           when the endpoint refuses the connection
     * @throws IllegalStateException when the server answers with an error
     */
    public static long backup(AdminFile admin, Path target, Duration timeout) throws Unreachable, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String body = JSON.createObjectNode().put("target", target.toString()).toString();
        HttpRequest request = HttpRequest.newBuilder(URI.create(admin.url() + AdminEndpoint.BACKUP_PATH))
                .timeout(timeout)
                .header(AdminEndpoint.TOKEN_HEADER, admin.token())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new Unreachable("no server answers at " + admin.url(), e);
        } catch (IOException e) {
            throw new IllegalStateException("online backup through " + admin.url() + " failed: " + e, e);
        }
        JsonNode answer = parse(response.body());
        if (response.statusCode() != 200) {
            String why = answer.path("error").asText(response.body());
            throw new IllegalStateException("the running server refused the backup (HTTP " + response.statusCode() + "): " + why);
        }
        return answer.path("millis").asLong(-1);
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
