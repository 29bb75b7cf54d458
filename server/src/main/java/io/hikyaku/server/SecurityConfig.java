package io.hikyaku.server;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How the server authenticates and whether it speaks TLS; immutable, changed with {@code withX}.
 * Kept apart from {@link ServerConfig} so that security settings travel as one unit.
 *
 * @param auth                 {@code none} (nothing verified) or {@code sigv4}
 * @param allowUnauthenticated permit {@code auth none} on a non-loopback address
 * @param identities           the configured accounts, users, roles and keys
 * @param tlsCert              PEM certificate chain for HTTPS, or null
 * @param tlsKey               PEM private key (PKCS#8) for HTTPS, or null
 * @param tlsPort              a second port for HTTPS next to HTTP, or null to serve HTTPS on the main port
 * @param allowedHosts         with {@code auth none}, the host names browser requests may address the server
 *                             by besides IP addresses, localhost and the bound and advertised hosts (DNS rebinding)
 * @param metricsTokenFile     a file holding the bearer token {@code GET /metrics} requires, or null (then
 *                             with auth sigv4 every scrape is refused; see MetricsEndpoint)
 * @param outboundAllow        where SNS may send HTTP/S deliveries ({@code --outbound-allow}: CIDRs, host names,
 *                             .suffixes or *), or null for loopback only (see docs/sns.md)
 * @param outboundCa           PEM certificates SNS's HTTPS deliveries trust besides the JVM's ({@code --outbound-ca}),
 *                             or null
 */
public record SecurityConfig(AuthMode auth, boolean allowUnauthenticated, Identities identities,
                             Path tlsCert, Path tlsKey, Integer tlsPort, List<String> allowedHosts, Path metricsTokenFile,
                             String outboundAllow, Path outboundCa) {

    public SecurityConfig(AuthMode auth, boolean allowUnauthenticated, Identities identities, Path tlsCert, Path tlsKey,
                          Integer tlsPort, List<String> allowedHosts, Path metricsTokenFile, String outboundAllow) {
        this(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, outboundAllow, null);
    }

    public SecurityConfig(AuthMode auth, boolean allowUnauthenticated, Identities identities, Path tlsCert, Path tlsKey,
                          Integer tlsPort, List<String> allowedHosts, Path metricsTokenFile) {
        this(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, null);
    }

    public SecurityConfig(AuthMode auth, boolean allowUnauthenticated, Identities identities, Path tlsCert, Path tlsKey, Integer tlsPort) {
        this(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, List.of(), null);
    }

    public SecurityConfig {
        allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
        for (String h : allowedHosts) {
            if (h.isBlank() || h.chars().anyMatch(c -> c <= ' ' || c == '/' || c == '@')) {
                throw new IllegalArgumentException("allowed host must be a host name, .suffix or *: \"" + h + "\"");
            }
        }
        if (outboundAllow != null) {
            io.hikyaku.sns.OutboundAllowList.parse(outboundAllow); // a bad entry fails the start, naming it
        }
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(identities, "identities");
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("TLS needs both a certificate (--tls-cert) and a key (--tls-key)");
        }
        if (tlsPort != null && (tlsPort < 0 || tlsPort > 65535)) {
            throw new IllegalArgumentException("TLS port must be 0..65535: " + tlsPort);
        }
        if (tlsPort != null && tlsCert == null) {
            throw new IllegalArgumentException("--tls-port needs --tls-cert and --tls-key");
        }
    }

    /** auth none, no identities, no TLS: what the server did before authentication existed. */
    public static SecurityConfig defaults() {
        return new SecurityConfig(AuthMode.NONE, false, Identities.NONE, null, null, null, List.of(), null);
    }

    public SecurityConfig withAuth(AuthMode value) {
        return new SecurityConfig(value, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, outboundAllow, outboundCa);
    }

    public SecurityConfig withAllowUnauthenticated(boolean value) {
        return new SecurityConfig(auth, value, identities, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, outboundAllow, outboundCa);
    }

    public SecurityConfig withIdentities(Identities value) {
        return new SecurityConfig(auth, allowUnauthenticated, value, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, outboundAllow, outboundCa);
    }

    public SecurityConfig withTls(Path cert, Path key, Integer port) {
        return new SecurityConfig(auth, allowUnauthenticated, identities, cert, key, port, allowedHosts, metricsTokenFile, outboundAllow, outboundCa);
    }

    public SecurityConfig withAllowedHosts(List<String> value) {
        return new SecurityConfig(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, value, metricsTokenFile, outboundAllow, outboundCa);
    }

    public SecurityConfig withMetricsTokenFile(Path value) {
        return new SecurityConfig(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, allowedHosts, value, outboundAllow, outboundCa);
    }

    public SecurityConfig withOutboundAllow(String value) {
        return new SecurityConfig(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile, value, outboundCa);
    }

    public SecurityConfig withOutboundCa(Path value) {
        return new SecurityConfig(auth, allowUnauthenticated, identities, tlsCert, tlsKey, tlsPort, allowedHosts, metricsTokenFile,
                outboundAllow, value);
    }

    /** The parsed {@code --outbound-allow}, loopback only when not given. */
    public io.hikyaku.sns.OutboundAllowList outboundAllowList() {
        return outboundAllow == null ? io.hikyaku.sns.OutboundAllowList.loopbackOnly()
                : io.hikyaku.sns.OutboundAllowList.parse(outboundAllow);
    }

    public boolean tls() {
        return tlsCert != null;
    }

    /**
     * @throws IllegalStateException when {@code auth none} would be reachable from other machines
     *                               and that was not explicitly allowed
     */
    public void checkExposure(String host) {
        if (auth == AuthMode.NONE && !allowUnauthenticated && !isLoopback(host)) {
            throw new IllegalStateException("refusing to serve without authentication on " + host
                    + ": anyone who can reach it could read and change every queue. Use --auth sigv4 with accounts in the"
                    + " config file, bind 127.0.0.1, or pass --allow-unauthenticated if this network is trusted");
        }
    }

    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equals("0.0.0.0") || h.equals("::") || h.isEmpty()) {
            return false;
        }
        try {
            for (InetAddress a : InetAddress.getAllByName(h)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
