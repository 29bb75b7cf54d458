package io.hikyaku.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.server.storage.Backups;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin requests under {@code /_hikyaku/} on the SQS port (queue URLs are {@code /<12 digits>/...},
 * so they cannot collide). Only {@code POST /_hikyaku/backup} exists: body {@code {"target":"/abs/dir"}},
 * answered once the checkpoint is complete. Accepted only from this host (loopback, or the address
 * the connection arrived on) and only with the token from the ADMIN file.
 */
public final class AdminEndpoint {

    public static final String PREFIX = "/_hikyaku/";
    public static final String BACKUP_PATH = PREFIX + "backup";
    public static final String TOKEN_HEADER = "x-hikyaku-admin-token";

    private static final Logger LOG = LoggerFactory.getLogger(AdminEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> JSON_TYPE = Map.of("content-type", "application/json");

    private final String token;
    private final Backups backups;
    private final Executor worker;

    /**
     * @param worker where checkpoints run (never an event loop: a checkpoint flushes and may copy files)
     */
    public AdminEndpoint(String token, Backups backups, Executor worker) {
        this.token = token;
        this.backups = backups;
        this.worker = worker;
    }

    public static String newToken() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public static boolean isAdminPath(HttpRequestData raw) {
        return raw.path().startsWith(PREFIX);
    }

    /** Answers an admin request; never completes exceptionally. */
    public CompletableFuture<HttpResponseData> handle(HttpRequestData raw, boolean fromThisHost) {
        if (!fromThisHost) {
            return done(403, "admin requests are accepted from this host only");
        }
        if (!tokenMatches(raw.header(TOKEN_HEADER))) {
            return done(403, "missing or wrong " + TOKEN_HEADER + " (see the ADMIN file in the data directory)");
        }
        if (!raw.path().equals(BACKUP_PATH)) {
            return done(404, "no admin resource " + raw.path());
        }
        if (!raw.method().equals("POST")) {
            return done(405, "use POST for " + BACKUP_PATH);
        }
        Path target;
        try {
            JsonNode body = JSON.readTree(raw.body());
            String text = body == null ? null : body.path("target").asText(null);
            if (text == null || text.isEmpty()) {
                return done(400, "body must be {\"target\":\"/absolute/dir\"}");
            }
            target = Path.of(text);
        } catch (java.io.IOException | InvalidPathException e) {
            return done(400, "body must be {\"target\":\"/absolute/dir\"}: " + e.getMessage());
        }
        if (!target.isAbsolute()) {
            return done(400, "target must be an absolute path: " + target);
        }
        if (Files.exists(target)) {
            return done(409, "backup target " + target + " already exists");
        }
        if (backups == null) {
            return done(409, "this server keeps nothing to back up (storage memory)");
        }
        return CompletableFuture.supplyAsync(() -> backup(target), worker);
    }

    private HttpResponseData backup(Path target) {
        long start = System.nanoTime();
        try {
            backups.checkpoint(target);
        } catch (RuntimeException e) {
            LOG.warn("Backup to {} failed", target, e);
            return response(500, "error", "backup failed: " + e.getMessage());
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        LOG.info("Backed up to {} in {} ms", target, millis);
        ObjectNode body = JSON.createObjectNode().put("status", "ok").put("target", target.toString()).put("millis", millis);
        return new HttpResponseData(200, JSON_TYPE, body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private boolean tokenMatches(String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    private static CompletableFuture<HttpResponseData> done(int status, String message) {
        return CompletableFuture.completedFuture(response(status, "error", message));
    }

    private static HttpResponseData response(int status, String key, String message) {
        String body = JSON.createObjectNode().put(key, message).toString();
        return new HttpResponseData(status, JSON_TYPE, body.getBytes(StandardCharsets.UTF_8));
    }
}
