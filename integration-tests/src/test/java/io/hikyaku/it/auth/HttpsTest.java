package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Map;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * HTTPS with a self-signed development certificate (test resources, made with the openssl command of
 * docs/security.md): on the main port, or on a second port next to HTTP; with SigV4 on top.
 */
class HttpsTest {

    @Test
    void httpsOnTheMainPortWithSigV4() throws Exception {
        Identities ids = new IdentitiesConfig(name -> null).parse(ConfigFile.parse(AuthTestBase.CONFIG.replace("secretAccessKeyEnv: ALICE_SECRET",
                "secretAccessKey: x")).accounts(), "test");
        SecurityConfig security = SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(ids)
                .withTls(resource("dev-cert.pem"), resource("dev-key.pem"), null);
        try (HikyakuServer server = HikyakuServer.start(config(), security)) {
            assertThat(server.endpoint()).startsWith("https://127.0.0.1:");
            try (SqsClient sqs = client(SqsClient.builder(), server.endpoint(), AuthTestBase.ROOT_A, AuthTestBase.ROOT_A_SECRET);
                 StsClient sts = client(StsClient.builder(), server.endpoint(), AuthTestBase.ROOT_A, AuthTestBase.ROOT_A_SECRET)) {
                String url = sqs.createQueue(b -> b.queueName("tls")).queueUrl();
                assertThat(url).isEqualTo(server.endpoint() + "/" + AuthTestBase.A + "/tls"); // queue URLs keep the scheme
                sqs.sendMessage(b -> b.queueUrl(url).messageBody("over tls"));
                assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).extracting(m -> m.body()).containsExactly("over tls");
                assertThat(sts.getCallerIdentity().account()).isEqualTo(AuthTestBase.A);
            }
            // plain HTTP to the TLS port gets no SQS answer
            try (SqsClient plain = client(SqsClient.builder(), server.endpoint().replace("https://", "http://"), AuthTestBase.ROOT_A,
                    AuthTestBase.ROOT_A_SECRET)) {
                assertThatThrownBy(plain::listQueues).isNotNull();
            }
        }
    }

    @Test
    void httpsOnASecondPortNextToHttp() throws Exception {
        SecurityConfig security = SecurityConfig.defaults().withTls(resource("dev-cert.pem"), resource("dev-key.pem"), 0);
        try (HikyakuServer server = HikyakuServer.start(config(), security)) {
            assertThat(server.endpoint()).startsWith("http://");
            assertThat(server.tlsEndpoint()).startsWith("https://").isNotEqualTo(server.endpoint().replace("http", "https"));
            try (SqsClient http = client(SqsClient.builder(), server.endpoint(), "test", "test");
                 SqsClient https = client(SqsClient.builder(), server.tlsEndpoint(), "test", "test")) {
                http.createQueue(b -> b.queueName("both"));
                assertThat(https.getQueueUrl(b -> b.queueName("both")).queueUrl()).isEqualTo(server.tlsEndpoint() + "/000000000000/both");
            }
        }
    }

    @Test
    void unusableCertificateStopsTheStart() throws Exception {
        SecurityConfig security = SecurityConfig.defaults().withTls(resource("dev-key.pem"), resource("dev-cert.pem"), null);
        assertThatThrownBy(() -> HikyakuServer.start(config(), security)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot use TLS certificate");
    }

    private static ServerConfig config() {
        return ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY);
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(HttpsTest.class.getResource("/tls/" + name).toURI());
    }

    private static <C, B extends software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, C>
            & software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder<B, C>> C client(B builder, String endpoint, String key,
                                                                                                 String secret) throws Exception {
        TrustManager[] trust = trustDevCertificate();
        return builder.endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
                .httpClient(UrlConnectionHttpClient.builder().tlsTrustManagersProvider(() -> trust).build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    /** Trusts exactly the development certificate, as a client configured with its CA bundle would. */
    private static TrustManager[] trustDevCertificate() throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = HttpsTest.class.getResourceAsStream("/tls/dev-cert.pem")) {
            store.setCertificateEntry("dev", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init(store);
        return f.getTrustManagers();
    }
}
