package io.hikyaku.it.support;

import com.amazonaws.ClientConfiguration;
import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * One Hikyaku server per test class (ephemeral port, in-memory, fake clock) plus an SDK v2 client
 * (AWS JSON 1.0), an SDK v1 client and a raw HTTP helper, all pointed at it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SqsTestBase {
    public static final String ACCOUNT = "000000000000";
    public static final String REGION = "us-east-1";
    /** Time the server needs to notice a clock advance in its timers (it reacts within ~50 ms). */
    private static final long TIMER_SETTLE_MILLIS = 150;

    protected MutableClock clock;
    protected HikyakuServer server;
    protected String endpoint;
    protected SqsClient sqs;
    protected AmazonSQS sqsV1;
    protected RawHttp http;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final AtomicInteger counter = new AtomicInteger();

    @BeforeAll
    void startServer() {
        clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(clock);
        server = HikyakuServer.start(configure(cfg));
        endpoint = server.endpoint();
        sqs = v2Client("test");
        sqsV1 = v1Client("test");
        http = new RawHttp(endpoint);
    }

    /** The server's configuration: a test class may change the defaults (in-memory, fake clock, port 0). */
    protected ServerConfig configure(ServerConfig defaults) {
        return defaults;
    }

    @AfterAll
    void stopServer() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** An SDK v2 client whose access key id is {@code accessKey} (a 12-digit key selects that account). */
    protected SqsClient v2Client(String accessKey) {
        SqsClient client = SqsClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
        closeables.add(client);
        return client;
    }

    /** An SDK v1 client whose access key id is {@code accessKey}. */
    protected AmazonSQS v1Client(String accessKey) {
        AmazonSQS client = AmazonSQSClientBuilder.standard()
                .withEndpointConfiguration(new EndpointConfiguration(endpoint, REGION))
                .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(accessKey, "test")))
                .withClientConfiguration(new ClientConfiguration().withMaxErrorRetry(0).withSocketTimeout(30_000))
                .build();
        closeables.add(client::shutdown);
        return client;
    }

    /** A queue name unique within this server: {@code prefix-N}. */
    protected String unique(String prefix) {
        return prefix + "-" + counter.incrementAndGet();
    }

    protected String uniqueFifo(String prefix) {
        return unique(prefix) + ".fifo";
    }

    /** Moves the fake clock and gives the server's timers a moment to react. */
    protected void advance(Duration by) {
        clock.advance(by);
        sleep(TIMER_SETTLE_MILLIS);
    }

    protected static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    protected String queueUrl(String name) {
        return endpoint + "/" + ACCOUNT + "/" + name;
    }

    protected static String arn(String name) {
        return arn(ACCOUNT, name);
    }

    protected static String arn(String account, String name) {
        return "arn:aws:sqs:" + REGION + ":" + account + ":" + name;
    }

    protected String createQueue(String name) {
        return sqs.createQueue(b -> b.queueName(name)).queueUrl();
    }

    protected String createQueue(String name, Map<QueueAttributeName, String> attributes) {
        return sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
    }

    protected String createFifoQueue(String name, Map<QueueAttributeName, String> extra) {
        Map<QueueAttributeName, String> attributes = new HashMap<>(extra);
        attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
        return createQueue(name, attributes);
    }

    protected Map<String, String> attributes(String url, QueueAttributeName... names) {
        return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(names)).attributesAsStrings();
    }

    protected String attribute(String url, QueueAttributeName name) {
        return attributes(url, name).get(name.toString());
    }

    protected static String redrivePolicy(String dlqArn, int maxReceiveCount) {
        return "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"" + maxReceiveCount + "\"}";
    }

    /**
     * The first message in {@code url}, with every system attribute, within 5 s of real time: short polls, since
     * the injected clock does not move by itself (a message made receivable by a timer appears without waiting).
     */
    protected Message firstMessage(String url) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
            if (!got.isEmpty()) {
                return got.get(0);
            }
            sleep(50);
        }
        throw new AssertionError("no message in " + url);
    }
}
