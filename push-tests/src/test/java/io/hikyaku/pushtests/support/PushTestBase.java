package io.hikyaku.pushtests.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.push.MappingMetrics;
import io.hikyaku.push.PushConfig;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * One real Hikyaku server per test class (ephemeral port on 127.0.0.1, a fake clock that moves only
 * when a test advances it) with the functions the class declares, an SDK v2 SQS client and a raw
 * client for the Lambda REST API.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PushTestBase {

    public static final String ACCOUNT = "000000000000";
    public static final String REGION = "us-east-1";
    protected static final ObjectMapper JSON = new ObjectMapper();

    protected MutableClock clock;
    protected HikyakuServer server;
    protected String endpoint;
    protected SqsClient sqs;
    protected final List<AutoCloseable> closeables = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicInteger names = new AtomicInteger();

    /** The functions of the server's config (their endpoints are started first). */
    protected abstract List<FunctionConfig> functions() throws Exception;

    /** Durable storage in this directory, or null for memory. */
    protected Path dataDir() {
        return null;
    }

    @BeforeAll
    void startServer() throws Exception {
        clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        startServerOnly();
        connect();
    }

    private void connect() {
        sqs = SqsClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .build();
    }

    /** Stops the server and starts it again on the same storage (a new port). */
    protected void restartServer() throws Exception {
        sqs.close();
        server.close();
        startServerOnly();
        connect();
    }

    protected void startServerOnly() throws Exception {
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withClock(clock).withPush(new PushConfig(functions(), List.of()));
        cfg = dataDir() == null ? cfg.withStorage(StorageMode.MEMORY) : cfg.withStorage(StorageMode.ROCKSDB).withDataDir(dataDir());
        server = HikyakuServer.start(cfg);
        endpoint = server.endpoint();
    }

    @AfterAll
    void stopServer() throws Exception {
        if (sqs != null) {
            sqs.close();
        }
        if (server != null) {
            server.close();
        }
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    protected String uniqueName(String prefix) {
        return prefix + "-" + names.incrementAndGet() + "-" + System.nanoTime() % 100000;
    }

    protected String createQueue(String name, Map<QueueAttributeName, String> attributes) {
        return sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
    }

    protected static String arn(String queueName) {
        return "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + queueName;
    }

    /** Visible plus in-flight messages. */
    protected long depth(String queueUrl) {
        Map<QueueAttributeName, String> a = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
        return Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                + Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    /** A Lambda REST call: status, error type (or null) and the JSON body. */
    public record LambdaResponse(int status, String errorType, JsonNode body) {}

    protected LambdaResponse lambda(String method, String path, String body) throws Exception {
        return lambdaAs(null, method, path, body);
    }

    /** As {@link #lambda}, signed (in form only) with access key {@code accessKey}: a 12-digit key selects that account. */
    protected LambdaResponse lambdaAs(String accessKey, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (accessKey != null) {
            b.header("Authorization", "AWS4-HMAC-SHA256 Credential=" + accessKey
                    + "/20260101/us-east-1/lambda/aws4_request, SignedHeaders=host, Signature=0");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new LambdaResponse(r.statusCode(), r.headers().firstValue("x-amzn-ErrorType").orElse(null),
                r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body()));
    }

    /** Creates a mapping (expects 202) and returns its UUID. */
    protected String createMapping(String json) throws Exception {
        LambdaResponse r = lambda("POST", "/2015-03-31/event-source-mappings/", json);
        assertThat(r.status()).as(r.body().toString()).isEqualTo(202);
        return r.body().path("UUID").asText();
    }

    protected void deleteMapping(String uuid) throws Exception {
        assertThat(lambda("DELETE", "/2015-03-31/event-source-mappings/" + uuid, null).status()).isEqualTo(202);
    }

    protected MappingMetrics metrics(String uuid) {
        return server.push().metrics().stream().filter(m -> m.uuid().equals(uuid)).findFirst().orElseThrow();
    }

    /** Polls {@code condition} every 20 ms until it holds; fails after {@code timeout}. */
    protected static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Advances the server's clock past visibility timeouts and the delivery backoff. */
    protected void advance(Duration d) {
        clock.advance(d);
    }
}
