package io.hikyaku.server.http;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.metrics.HikyakuMetrics;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics}: every account's queue names, counts and push mappings, so it is guarded like an
 * API. With a token file (--metrics-token-file) a scrape must carry {@code Authorization: Bearer <token>}
 * (Prometheus' {@code authorization} scrape setting), in every auth mode; with {@code auth sigv4} and no
 * token every scrape is refused (403), so turning authentication on never leaves the metrics open; with
 * {@code auth none} and no token it stays open, like the rest of the API on its loopback default.
 * A scrape reads every queue, so it is built on its own thread, never on an event loop.
 */
public final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final Map<String, String> TEXT = Map.of("content-type", "text/plain; charset=utf-8");

    private final HikyakuMetrics metrics;
    private final AuthMode auth;
    /** The token's UTF-8 bytes, or null for none. */
    private final byte[] token;
    private final ExecutorService scrapes = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hikyaku-metrics-scrape");
        t.setDaemon(true);
        return t;
    });

    /** @param metrics the registry, or null when metrics are off (then 404) */
    public MetricsEndpoint(HikyakuMetrics metrics, AuthMode auth, byte[] token) {
        this.metrics = metrics;
        this.auth = auth;
        this.token = token == null ? null : token.clone();
    }

    /** Reads the token: the file's content without surrounding white space; an empty or unreadable file stops the start. */
    public static byte[] readToken(Path file) {
        if (file == null) {
            return null;
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the metrics token file " + file + ": " + e.getMessage(), e);
        }
        if (text.isEmpty()) {
            throw new IllegalStateException("the metrics token file " + file + " is empty");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static boolean isMetrics(HttpRequestData raw) {
        return raw.path().equals("/metrics") && (raw.method().equals("GET") || raw.method().equals("HEAD"));
    }

    /** The response, completed on the scrape thread (or at once when refused). */
    public CompletableFuture<HttpResponseData> handle(HttpRequestData raw) {
        if (metrics == null) {
            return CompletableFuture.completedFuture(text(404, "metrics are off"));
        }
        if (token != null) {
            if (!bearerMatches(raw.header("authorization"))) {
                return CompletableFuture.completedFuture(new HttpResponseData(401,
                        Map.of("content-type", "text/plain; charset=utf-8", "www-authenticate", "Bearer realm=\"hikyaku-metrics\""),
                        "metrics need the bearer token of --metrics-token-file".getBytes(StandardCharsets.UTF_8)));
            }
        } else if (auth != AuthMode.NONE) {
            return CompletableFuture.completedFuture(text(403,
                    "metrics are closed: with auth sigv4 a scrape needs --metrics-token-file (docs/operations.md, \"Monitoring\")"));
        }
        String accept = raw.header("accept");
        try {
            return CompletableFuture.supplyAsync(() -> {
                HikyakuMetrics.Scrape scrape = metrics.scrape(accept);
                return new HttpResponseData(200, Map.of("content-type", scrape.contentType()), scrape.body());
            }, scrapes).exceptionally(e -> {
                LOG.warn("GET /metrics failed", e);
                return text(500, "scrape failed: " + e.getClass().getSimpleName());
            });
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(text(503, "the server is stopping"));
        }
    }

    /** Constant-time comparison of the presented token with ours. */
    private boolean bearerMatches(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token);
    }

    private static HttpResponseData text(int status, String message) {
        return new HttpResponseData(status, TEXT, message.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        scrapes.shutdownNow();
    }
}
