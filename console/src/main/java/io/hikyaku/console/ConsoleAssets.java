package io.hikyaku.console;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The web console's static files at {@code /console/}. The console has no server-side logic and no
 * back door: its pages call the public SQS JSON API on the same origin, so every action is an
 * ordinary, authenticated and authorized API call. Only the files listed here are served (no path
 * is ever mapped onto the class path), each with headers that keep it from being framed, sniffed
 * or made to load anything from another origin.
 */
public final class ConsoleAssets {

    public static final String ROOT = "/console/";
    private static final String RESOURCES = "/io/hikyaku/console/static/";
    /** Everything the pages need comes from this origin; no inline script or style is allowed. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "console.css", "text/css; charset=utf-8",
            "app.js", "text/javascript; charset=utf-8",
            "sqs-client.js", "text/javascript; charset=utf-8",
            "charts.js", "text/javascript; charset=utf-8",
            "alarms.js", "text/javascript; charset=utf-8",
            "schedules.js", "text/javascript; charset=utf-8",
            "sigv4.js", "text/javascript; charset=utf-8");

    private final Map<String, byte[]> files = new LinkedHashMap<>();

    /** Reads every asset once, at start: a missing one is a build error, found before serving. */
    public ConsoleAssets() {
        for (String name : TYPES.keySet()) {
            try (InputStream in = ConsoleAssets.class.getResourceAsStream(RESOURCES + name)) {
                if (in == null) {
                    throw new IllegalStateException("console asset missing from the jar: " + name);
                }
                files.put(name, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** {@code /console} and everything under {@code /console/}. */
    public static boolean isConsolePath(String path) {
        return path.equals("/console") || path.startsWith(ROOT);
    }

    /** GET or HEAD of an asset; {@code /console} redirects to {@code /console/}; anything else 404 or 405. */
    public HttpResponseData handle(HttpRequestData request) {
        String path = request.path();
        boolean head = request.method().equals("HEAD");
        if (!head && !request.method().equals("GET")) {
            Map<String, String> headers = headers("text/plain; charset=utf-8");
            headers.put("Allow", "GET, HEAD");
            return new HttpResponseData(405, headers, bytes("method not allowed\n"));
        }
        if (path.equals("/console")) {
            Map<String, String> headers = headers("text/plain; charset=utf-8");
            headers.put("Location", ROOT);
            return new HttpResponseData(301, headers, head ? new byte[0] : bytes("see /console/\n"));
        }
        String name = path.equals(ROOT) ? "index.html" : path.substring(ROOT.length());
        byte[] body = files.get(name);
        if (body == null) {
            return new HttpResponseData(404, headers("text/plain; charset=utf-8"), head ? new byte[0] : bytes("not found\n"));
        }
        return new HttpResponseData(200, headers(TYPES.get(name)), head ? new byte[0] : body);
    }

    private static Map<String, String> headers(String contentType) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", contentType);
        h.put("Content-Security-Policy", CSP);
        h.put("X-Frame-Options", "DENY");
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Referrer-Policy", "no-referrer");
        h.put("Cache-Control", "no-cache");
        return h;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
