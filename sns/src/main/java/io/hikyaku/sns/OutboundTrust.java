package io.hikyaku.sns;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Whom HTTPS deliveries trust: the JVM's trust store, plus the certificates of {@code --outbound-ca} (a PEM file of
 * CA or self-signed certificates, for subscribers inside a network with its own CA). Host names are verified either
 * way ({@link HttpEndpointClient}).
 */
final class OutboundTrust {

    private OutboundTrust() {
    }

    /** The JVM's default TLS sockets when {@code extraCertificates} is null, else ones that also trust its certificates. */
    static SSLSocketFactory sockets(Path extraCertificates) {
        if (extraCertificates == null) {
            return (SSLSocketFactory) SSLSocketFactory.getDefault();
        }
        try {
            KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
            anchors.load(null, null);
            int n = 0;
            for (X509Certificate jvm : jvmTrust().getAcceptedIssuers()) {
                anchors.setCertificateEntry("jvm-" + n++, jvm);
            }
            Collection<? extends Certificate> extra;
            try (InputStream in = Files.newInputStream(extraCertificates)) {
                extra = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (extra.isEmpty()) {
                throw new IllegalArgumentException("--outbound-ca " + extraCertificates + " holds no PEM certificate");
            }
            for (Certificate c : extra) {
                anchors.setCertificateEntry("outbound-ca-" + n++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(anchors);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            return tls.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--outbound-ca " + extraCertificates + " cannot be read as PEM certificates: " + e.getMessage(), e);
        }
    }

    private static X509TrustManager jvmTrust() throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init((KeyStore) null);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("the JVM has no X.509 trust manager");
    }
}
