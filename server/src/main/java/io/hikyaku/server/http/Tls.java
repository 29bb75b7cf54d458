package io.hikyaku.server.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLException;

/** The server's TLS context, from a PEM certificate chain and a PEM (PKCS#8) private key. */
public final class Tls {

    /** TLS 1.3, and TLS 1.2 for older clients; nothing older. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    /**
     * TLS 1.3's suites as they are, and for TLS 1.2 only forward-secret key exchange (ECDHE) with an
     * AEAD cipher: no RSA key exchange, no CBC (the suites Mozilla's "intermediate" profile keeps).
     */
    static final List<String> CIPHERS = List.of(
            "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    private Tls() {}

    /** @throws IllegalStateException naming the file when a certificate or key cannot be used */
    public static SslContext serverContext(Path certificate, Path privateKey) {
        for (Path p : new Path[] {certificate, privateKey}) {
            if (!Files.isReadable(p)) {
                throw new IllegalStateException("cannot read TLS file " + p);
            }
        }
        try {
            return SslContextBuilder.forServer(certificate.toFile(), privateKey.toFile())
                    .protocols(PROTOCOLS)
                    .ciphers(CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot use TLS certificate " + certificate + " with key " + privateKey
                    + " (PEM certificate chain and unencrypted PKCS#8 PEM key expected): " + e.getMessage(), e);
        }
    }
}
