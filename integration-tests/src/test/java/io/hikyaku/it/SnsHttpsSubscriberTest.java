package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;

/**
 * An {@code https} subscription on the real server: the subscriber is a JDK HttpsServer on loopback with the
 * self-signed development certificate of the test resources (CN localhost, SAN 127.0.0.1). The server trusts it
 * through {@code --outbound-ca} (SecurityConfig.withOutboundCa), so the confirmation and the notification arrive over
 * TLS; without it the handshake fails and nothing arrives; a file with no certificate stops the start.
 */
class SnsHttpsSubscriberTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpsServer subscriber;
    private String hook;
    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private final HttpClient web = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Path resource(String name) throws Exception {
        return Path.of(SnsHttpsSubscriberTest.class.getResource("/tls/" + name).toURI());
    }

    private static SSLContext devCertificateContext() throws Exception {
        String pem = Files.readString(resource("dev-key.pem"));
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        Certificate[] chain;
        try (InputStream in = Files.newInputStream(resource("dev-cert.pem"))) {
            chain = CertificateFactory.getInstance("X.509").generateCertificates(in).toArray(new Certificate[0]);
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("dev", key, new char[0], chain);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, new char[0]);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }

    @BeforeEach
    void startSubscriber() throws Exception {
        subscriber = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        subscriber.setHttpsConfigurator(new HttpsConfigurator(devCertificateContext()));
        subscriber.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            JsonNode m = JSON.readTree(body);
            received.add(m);
            int status = 200;
            if ("SubscriptionConfirmation".equals(m.path("Type").asText())) {
                try {
                    status = web.send(HttpRequest.newBuilder(URI.create(m.path("SubscribeURL").asText())).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200 ? 200 : 502;
                } catch (Exception e) {
                    status = 502;
                }
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        subscriber.start();
        hook = "https://127.0.0.1:" + subscriber.getAddress().getPort() + "/hook";
    }

    @AfterEach
    void stopSubscriber() {
        subscriber.stop(0);
    }

    private static ServerConfig config() {
        return ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY);
    }

    private static SnsClient sns(HikyakuServer server) {
        return SnsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Test
    void aSelfSignedSubscriberTrustedByOutboundCaIsConfirmedAndNotifiedOverTls() throws Exception {
        SecurityConfig security = SecurityConfig.defaults().withOutboundCa(resource("dev-cert.pem"));
        try (HikyakuServer server = HikyakuServer.start(config(), security); SnsClient sns = sns(server)) {
            String topic = sns.createTopic(b -> b.name("secure")).topicArn();
            assertThat(sns.subscribe(b -> b.topicArn(topic).protocol("https").endpoint(hook)).subscriptionArn())
                    .isEqualTo("pending confirmation");
            JsonNode confirmation = received.poll(20, TimeUnit.SECONDS);
            assertThat(confirmation).as("the SubscriptionConfirmation over TLS").isNotNull();
            assertThat(confirmation.path("Type").asText()).isEqualTo("SubscriptionConfirmation");
            for (int i = 0; i < 100 && sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions().get(0)
                    .subscriptionArn().equals("PendingConfirmation"); i++) {
                Thread.sleep(50);
            }
            String id = sns.publish(b -> b.topicArn(topic).message("over https")).messageId();
            JsonNode notification = received.poll(20, TimeUnit.SECONDS);
            assertThat(notification).as("the Notification over TLS").isNotNull();
            assertThat(notification.path("Type").asText()).isEqualTo("Notification");
            assertThat(notification.path("MessageId").asText()).isEqualTo(id);
            assertThat(notification.path("Message").asText()).isEqualTo("over https");
        }
    }

    @Test
    void withoutOutboundCaTheSelfSignedSubscriberIsNotTrusted() throws Exception {
        try (HikyakuServer server = HikyakuServer.start(config(), SecurityConfig.defaults()); SnsClient sns = sns(server)) {
            String topic = sns.createTopic(b -> b.name("untrusted")).topicArn();
            sns.subscribe(b -> b.topicArn(topic).protocol("https").endpoint(hook));
            assertThat(received.poll(3, TimeUnit.SECONDS)).as("the handshake fails: nothing reaches the subscriber").isNull();
            assertThat(sns.listSubscriptionsByTopic(b -> b.topicArn(topic)).subscriptions().get(0).subscriptionArn())
                    .isEqualTo("PendingConfirmation");
        }
    }

    @Test
    void anOutboundCaFileWithoutCertificatesStopsTheStart() throws Exception {
        SecurityConfig security = SecurityConfig.defaults().withOutboundCa(resource("dev-key.pem"));
        assertThatThrownBy(() -> HikyakuServer.start(config(), security)).hasStackTraceContaining("--outbound-ca");
    }
}
