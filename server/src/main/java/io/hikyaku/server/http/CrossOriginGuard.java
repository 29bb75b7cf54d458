package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Refuses API requests that a web browser sends on behalf of a page it should not act for.
 *
 * <p>Cross-site request forgery: SDKs, the CLI and other programs never send {@code Origin} or
 * {@code Sec-Fetch-Site}; browsers do, and the console's own calls are same-origin. Hikyaku never
 * approves a CORS preflight, so the only cross-origin requests a foreign page can make are "simple"
 * ones (an HTML form POST of a Query call, an image GET with {@code ?Action=...}): with
 * {@code auth sigv4} they fail for want of a signature anyway, but with {@code auth none} they would
 * act unauthenticated.
 *
 * <p>DNS rebinding: a page on {@code evil.example} whose name is then re-pointed at 127.0.0.1 is
 * "same-origin" with itself, and {@code Origin} and {@code Host} both say {@code evil.example}. So with
 * {@code auth none} a browser request must also name the server by a host it is known by: an IP
 * address (a literal cannot be rebound), {@code localhost} or {@code *.localhost}, the bound or
 * advertised host, or one of {@code --allowed-hosts} ({@code .example.com} allows its subdomains,
 * {@code *} anything). Requests that show no sign of a browser (no {@code Origin}, no
 * {@code Sec-Fetch-*}, a User-Agent that is not {@code Mozilla/...}) are never refused on their Host:
 * SDK clients in other containers call Hikyaku by service names nobody listed.
 */
public final class CrossOriginGuard {

    /** Origin and Sec-Fetch-Site checks only, any Host (auth sigv4: every request is signed anyway). */
    public static final CrossOriginGuard ORIGIN_ONLY = new CrossOriginGuard(null);

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** Lower-case host names (no port) a browser request may name; null = any. */
    private final List<String> hosts;

    private CrossOriginGuard(List<String> hosts) {
        this.hosts = hosts;
    }

    /**
     * The guard of a server with {@code auth none}.
     *
     * @param allowedHosts  the operator's {@code --allowed-hosts}
     * @param bindHost      the address bound (ignored when a wildcard)
     * @param advertisedUrl the {@code --advertised-url}, or null
     */
    public static CrossOriginGuard forAuthNone(List<String> allowedHosts, String bindHost, String advertisedUrl) {
        List<String> hosts = new ArrayList<>();
        for (String h : allowedHosts) {
            hosts.add(normal(h));
        }
        if (bindHost != null && !bindHost.equals("0.0.0.0") && !bindHost.equals("::") && !bindHost.equals("[::]")) {
            hosts.add(normal(bindHost));
        }
        if (advertisedUrl != null) {
            try {
                String h = URI.create(advertisedUrl).getHost();
                if (h != null) {
                    hosts.add(normal(h));
                }
            } catch (IllegalArgumentException ignored) {
                // ServerConfig checked it already
            }
        }
        return new CrossOriginGuard(List.copyOf(hosts));
    }

    /** Why {@code raw} is refused, or null when it is not a browser request to refuse. */
    public String refusal(HttpRequestData raw) {
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
        if (hosts != null && fromBrowser(raw) && !allowedHost(raw.header("host"))) {
            String host = raw.header("host");
            return "Browser requests must name this server by an allowed host, not " + (host == null ? "no Host" : host.trim())
                    + " (see --allowed-hosts).";
        }
        return null;
    }

    private static boolean fromBrowser(HttpRequestData raw) {
        if (raw.header("origin") != null || raw.header("sec-fetch-site") != null || raw.header("sec-fetch-mode") != null
                || raw.header("sec-fetch-dest") != null) {
            return true;
        }
        String agent = raw.header("user-agent"); // browsers that send no Sec-Fetch-* (older Safari) still say Mozilla/
        return agent != null && agent.startsWith("Mozilla/");
    }

    boolean allowedHost(String hostHeader) {
        if (hostHeader == null) {
            return false;
        }
        String h = hostOnly(hostHeader.trim().toLowerCase(Locale.ROOT));
        if (h == null || h.isEmpty()) {
            return false;
        }
        if (h.startsWith("[") || IPV4.matcher(h).matches() || h.equals("localhost") || h.endsWith(".localhost")) {
            return true; // an address cannot be rebound; browsers resolve *.localhost to loopback themselves
        }
        for (String allowed : hosts) {
            if (allowed.equals("*") || allowed.equals(h) || (allowed.startsWith(".") && (h.endsWith(allowed) || h.equals(allowed.substring(1))))) {
                return true;
            }
        }
        return false;
    }

    /** {@code name}, {@code name:port}, {@code [v6]:port} → {@code name} / {@code [v6]}, trailing dot dropped; null if malformed. */
    private static String hostOnly(String host) {
        String h = host;
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close < 0 ? null : h.substring(0, close + 1);
        }
        int colon = h.indexOf(':');
        if (colon >= 0) {
            if (h.indexOf(':', colon + 1) >= 0) {
                return null;
            }
            h = h.substring(0, colon);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    private static String normal(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (h.contains(":") && !h.startsWith("[") && h.indexOf(':') != h.lastIndexOf(':')) {
            return "[" + h + "]"; // a bare IPv6 bind address
        }
        String only = hostOnly(h);
        return only == null ? h : only;
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
