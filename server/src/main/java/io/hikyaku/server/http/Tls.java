package io.hikyaku.server.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/** The server's TLS context, from a PEM certificate chain and a PEM (PKCS#8) private key. */
public final class Tls {

    private Tls() {}

    /** @throws IllegalStateException naming the file when a certificate or key cannot be used */
    public static SslContext serverContext(Path certificate, Path privateKey) {
        for (Path p : new Path[] {certificate, privateKey}) {
            if (!Files.isReadable(p)) {
                throw new IllegalStateException("cannot read TLS file " + p);
            }
        }
        try {
            return SslContextBuilder.forServer(certificate.toFile(), privateKey.toFile()).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot use TLS certificate " + certificate + " with key " + privateKey
                    + " (PEM certificate chain and unencrypted PKCS#8 PEM key expected): " + e.getMessage(), e);
        }
    }
}
