package io.hikyaku.server.config;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.server.SecurityConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Security settings from one source (config file {@code server:} section, environment or flags);
 * null = not given there. Layered like {@link Settings}: defaults &lt; file &lt; environment &lt; flags.
 */
public record SecuritySettings(AuthMode auth, Boolean allowUnauthenticated, Path tlsCert, Path tlsKey, Integer tlsPort,
                               List<String> allowedHosts, Path metricsTokenFile, String outboundAllow, Path outboundCa) {

    public static final SecuritySettings NONE = new SecuritySettings(null, null, null, null, null, null, null, null);

    public SecuritySettings(AuthMode auth, Boolean allowUnauthenticated, Path tlsCert, Path tlsKey, Integer tlsPort,
                            List<String> allowedHosts, Path metricsTokenFile, String outboundAllow) {
        this(auth, allowUnauthenticated, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, outboundAllow, null);
    }

    public SecuritySettings(AuthMode auth, Boolean allowUnauthenticated, Path tlsCert, Path tlsKey, Integer tlsPort,
                            List<String> allowedHosts, Path metricsTokenFile) {
        this(auth, allowUnauthenticated, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, null);
    }

    public SecuritySettings(AuthMode auth, Boolean allowUnauthenticated, Path tlsCert, Path tlsKey, Integer tlsPort) {
        this(auth, allowUnauthenticated, tlsCert, tlsKey, tlsPort, null, null, null);
    }

    public SecurityConfig applyTo(SecurityConfig base) {
        SecurityConfig c = base;
        if (auth != null) c = c.withAuth(auth);
        if (allowUnauthenticated != null) c = c.withAllowUnauthenticated(allowUnauthenticated);
        if (allowedHosts != null) c = c.withAllowedHosts(allowedHosts);
        if (tlsCert != null || tlsKey != null || tlsPort != null) {
            c = c.withTls(tlsCert != null ? tlsCert : c.tlsCert(), tlsKey != null ? tlsKey : c.tlsKey(),
                    tlsPort != null ? tlsPort : c.tlsPort());
        }
        if (metricsTokenFile != null) c = c.withMetricsTokenFile(metricsTokenFile);
        if (outboundAllow != null) c = c.withOutboundAllow(outboundAllow);
        if (outboundCa != null) c = c.withOutboundCa(outboundCa);
        return c;
    }

    /** {@code none} or {@code sigv4}, any case. */
    public static AuthMode auth(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "none" -> AuthMode.NONE;
            case "sigv4" -> AuthMode.SIGV4;
            default -> throw new ConfigException(source + ": auth must be none or sigv4, got " + text);
        };
    }

    /** {@code true} / {@code false}, any case. */
    static Boolean bool(String source, String text) {
        if (text == null) {
            return null;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(source + ": must be true or false, got " + text);
        };
    }

    public static SecuritySettings fromEnvironment(java.util.Map<String, String> env) {
        return new SecuritySettings(auth("HIKYAKU_AUTH", value(env, "HIKYAKU_AUTH")),
                bool("HIKYAKU_ALLOW_UNAUTHENTICATED", value(env, "HIKYAKU_ALLOW_UNAUTHENTICATED")),
                path(value(env, "HIKYAKU_TLS_CERT")), path(value(env, "HIKYAKU_TLS_KEY")),
                SettingValues.port("HIKYAKU_TLS_PORT", value(env, "HIKYAKU_TLS_PORT")),
                hostList(value(env, "HIKYAKU_ALLOWED_HOSTS")), path(value(env, "HIKYAKU_METRICS_TOKEN_FILE")),
                value(env, "HIKYAKU_OUTBOUND_ALLOW"), path(value(env, "HIKYAKU_OUTBOUND_CA")));
    }

    /** {@code a.example, .lan, *}: comma-separated host names; null when not given. */
    public static List<String> hostList(String text) {
        if (text == null) {
            return null;
        }
        List<String> hosts = new ArrayList<>();
        for (String h : text.split(",")) {
            if (!h.isBlank()) {
                hosts.add(h.trim());
            }
        }
        return hosts;
    }

    private static String value(java.util.Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    private static Path path(String text) {
        return text == null ? null : Path.of(text);
    }
}
