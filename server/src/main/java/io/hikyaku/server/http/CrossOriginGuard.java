package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import java.net.URI;
import java.util.Locale;

/**
 * Refuses API requests that a web browser sends on behalf of a page from another origin (cross-site
 * request forgery). SDKs, the CLI and other programs never send {@code Origin} or
 * {@code Sec-Fetch-Site}; browsers do, and the console's own calls are same-origin. Hikyaku never
 * approves a CORS preflight, so the only cross-origin requests a foreign page can make are "simple"
 * ones (an HTML form POST of a Query call, an image GET with {@code ?Action=...}): with
 * {@code auth sigv4} they fail for want of a signature anyway, but with {@code auth none} on a
 * developer's loopback server they would act unauthenticated, which is why this guard exists.
 */
final class CrossOriginGuard {

    private CrossOriginGuard() {
    }

    /** Why {@code raw} is refused, or null when it is not a cross-origin browser request. */
    static String refusal(HttpRequestData raw) {
        String site = raw.header("sec-fetch-site");
        if (site != null) {
            String s = site.trim().toLowerCase(Locale.ROOT);
            // "none": typed in the address bar or a bookmark; "same-origin": our own console.
            if (!s.equals("same-origin") && !s.equals("none")) {
                return "Cross-origin browser requests are refused (Sec-Fetch-Site: " + s + ").";
            }
        }
        String origin = raw.header("origin");
        if (origin != null && !sameOrigin(origin.trim(), raw.header("host"))) {
            return "Cross-origin browser requests are refused (Origin: " + origin.trim() + ").";
        }
        return null;
    }

    /** The Origin's host[:port] equals the Host header (scheme aside: TLS and plain share the check). */
    private static boolean sameOrigin(String origin, String host) {
        if (host == null || origin.equals("null")) {
            return false;
        }
        try {
            URI uri = URI.create(origin);
            if (uri.getHost() == null) {
                return false;
            }
            String authority = uri.getRawAuthority();
            String h = host.trim().toLowerCase(Locale.ROOT);
            String a = authority.toLowerCase(Locale.ROOT);
            if (a.equals(h)) {
                return true;
            }
            // Default ports: the Origin omits them, the Host header may not (or the other way round).
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            String bare = uri.getHost().toLowerCase(Locale.ROOT);
            return h.equals(bare + ":" + port) || (h.equals(bare) && (port == 80 || port == 443));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
