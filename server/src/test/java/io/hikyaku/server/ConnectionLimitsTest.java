package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.server.http.ConnectionLimits;
import io.hikyaku.testsupport.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Issue 35: connections per address, the head timeout, the body limit without credentials, TLS 1.2 suites. */
class ConnectionLimitsTest {

    final MutableClock clock = new MutableClock(Instant.parse("2026-01-02T03:04:05Z"));
    HikyakuServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    HikyakuServer start(SecurityConfig security, ConnectionLimits limits) {
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(clock),
                security, limits);
        return server;
    }

    @Test
    void connectionsOverThePerAddressLimitAreClosedAndOtherAddressesAreServed() throws Exception {
        start(SecurityConfig.defaults(), ConnectionLimits.DEFAULTS.withMaxConnectionsPerAddress(3));
        List<RawHttp> open = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                RawHttp http = new RawHttp(server.port());
                open.add(http);
                http.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(http.read().status()).isEqualTo(200);
            }
            try (RawHttp fourth = new RawHttp(server.port())) {
                assertThat(fourth.closedByServer()).as("a fourth connection from 127.0.0.1").isTrue();
            }
            try (Socket other = new Socket()) {
                other.bind(new InetSocketAddress("127.0.0.2", 0));
                other.connect(new InetSocketAddress("127.0.0.1", server.port()), 1_000);
                other.setSoTimeout(5_000);
                assertThat(healthOver(other)).as("another address").startsWith("HTTP/1.1 200");
            }
            open.remove(0).close();
            boolean admitted = false;
            for (int attempt = 0; attempt < 50 && !admitted; attempt++) { // the count drops once the close is seen
                try (RawHttp again = new RawHttp(server.port())) {
                    again.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
                    admitted = again.read().status() == 200;
                } catch (IOException closed) {
                    Thread.sleep(20);
                }
            }
            assertThat(admitted).as("a slot freed by a closed connection is reused").isTrue();
        } finally {
            for (RawHttp h : open) {
                h.close();
            }
        }
    }

    @Test
    void aHeadNotCompletedWithinTheHeadTimeoutIsClosedButAnIdleKeepAliveConnectionIsNot() throws Exception {
        long timeout = ConnectionLimits.DEFAULTS.headTimeoutMillis();
        start(SecurityConfig.defaults(), ConnectionLimits.DEFAULTS);
        try (RawHttp slow = new RawHttp(server.port()); RawHttp keptAlive = new RawHttp(server.port())) {
            keptAlive.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(keptAlive.read().status()).isEqualTo(200);
            slow.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: a");
            assertThat(slow.silentFor(200)).isTrue();

            clock.advance(Duration.ofMillis(timeout - 1));
            server.sweepIdleConnections();
            assertThat(slow.silentFor(300)).as("just under the head timeout").isTrue();
            slow.send("b"); // trickling bytes does not restart the head's clock
            clock.advance(Duration.ofMillis(1));
            server.sweepIdleConnections();
            assertThat(slow.closedByServer()).as("slowloris").isTrue();
            assertThat(keptAlive.silentFor(300)).as("between requests a connection is idle, not slow").isTrue();
            keptAlive.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(keptAlive.read().status()).isEqualTo(200);
        }
    }

    @Test
    void withSigv4ARequestNamingNoCredentialGetsTheSmallBodyLimitBeforeItsBodyIsRead() throws Exception {
        start(SecurityConfig.defaults().withAuth(AuthMode.SIGV4), ConnectionLimits.DEFAULTS);
        int limit = ConnectionLimits.DEFAULTS.maxUnauthenticatedBodyBytes();
        String head = "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
                + "Content-Type: application/x-amz-json-1.0\r\nExpect: 100-continue\r\nContent-Length: " + (limit + 1) + "\r\n";
        try (RawHttp anonymous = new RawHttp(server.port())) {
            anonymous.send(head + "\r\n"); // no body sent: the refusal must come from the head alone
            RawHttp.Response refused = anonymous.read();
            assertThat(refused.status()).isEqualTo(413);
            assertThat(refused.body()).contains("RequestEntityTooLarge").contains("without credentials");
        }
        try (RawHttp signed = new RawHttp(server.port())) {
            signed.send(head + "Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260102/us-east-1/sqs/aws4_request,"
                    + " SignedHeaders=host, Signature=00\r\n\r\n");
            RawHttp.Response goAhead = signed.readHead();
            assertThat(goAhead.status()).as("a request naming a credential has the full limit").isEqualTo(100);
        }
        try (RawHttp small = new RawHttp(server.port())) {
            small.send(RawHttp.jsonCall("ListQueues", "{}"));
            assertThat(small.read().status()).as("a small anonymous request is read and judged by authentication")
                    .isNotEqualTo(413);
        }
    }

    @Test
    void tls12AcceptsEcdheWithAeadAndRefusesCbcAndRsaKeyExchange() throws Exception {
        start(SecurityConfig.defaults().withTls(resource("dev-cert.pem"), resource("dev-key.pem"), null), ConnectionLimits.DEFAULTS);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, new TrustManager[] {new TrustEverything()}, null);

        assertThat(handshake(client, "TLSv1.2", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"))
                .isEqualTo("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
        assertThat(handshake(client, "TLSv1.3", "TLS_AES_128_GCM_SHA256")).isEqualTo("TLS_AES_128_GCM_SHA256");
        for (String refused : List.of("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256")) {
            assertThat(client.getSupportedSSLParameters().getCipherSuites()).as("the client can offer it").contains(refused);
            assertThatThrownBy(() -> handshake(client, "TLSv1.2", refused)).as(refused)
                    .isInstanceOf(SSLHandshakeException.class).hasMessageContaining("handshake_failure");
        }
    }

    private String handshake(SSLContext client, String protocol, String suite) throws IOException {
        try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            s.setEnabledProtocols(new String[] {protocol});
            s.setEnabledCipherSuites(new String[] {suite});
            s.startHandshake();
            assertThat(healthOver(s)).startsWith("HTTP/1.1 200");
            return s.getSession().getCipherSuite();
        }
    }

    private static String healthOver(Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = s.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(ConnectionLimitsTest.class.getResource("/tls/" + name).toURI());
    }

    /** The test's own self-signed certificate; what is tested is the suite, not the chain. */
    private static final class TrustEverything implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
