package io.hikyaku.itq.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.AmazonServiceException;
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
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * One Hikyaku server per test class (127.0.0.1, ephemeral port, in-memory, fake clock) and an AWS SDK
 * for Java v1 client of the last Query/XML generation pointed at it. Every test class ends by checking
 * that the wire really was Query throughout ({@link QueryWireRecorder}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class QueryTestBase {
    public static final String ACCOUNT = "000000000000";
    public static final String REGION = "us-east-1";
    /** Time the server's timer loop needs to notice a clock advance. */
    private static final long TIMER_SETTLE_MILLIS = 150;

    protected MutableClock clock;
    protected HikyakuServer server;
    protected String endpoint;
    protected AmazonSQS sqs;
    protected final QueryWireRecorder wire = new QueryWireRecorder();
    private final AtomicInteger counter = new AtomicInteger();

    @BeforeAll
    void startServer() {
        clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(clock));
        endpoint = server.endpoint();
        sqs = client("test");
    }

    @AfterAll
    void stopServer() {
        if (sqs != null) {
            sqs.shutdown();
        }
        if (server != null) {
            server.close();
        }
        assertThat(wire.violations()).as("requests or answers that were not Query/XML").isEmpty();
    }

    /** A Query client whose access key id is {@code accessKey} (12 digits select that account). */
    protected AmazonSQS client(String accessKey) {
        return AmazonSQSClientBuilder.standard()
                .withEndpointConfiguration(new EndpointConfiguration(endpoint, REGION))
                .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(accessKey, "secret")))
                .withClientConfiguration(new ClientConfiguration().withMaxErrorRetry(0).withSocketTimeout(30_000))
                .withRequestHandlers(wire)
                .build();
    }

    protected String unique(String prefix) {
        return prefix + "-" + counter.incrementAndGet();
    }

    protected String arn(String name) {
        return "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + name;
    }

    /** Moves the fake clock and gives the server's timers a moment to react. */
    protected void advance(Duration by) {
        clock.advance(by);
        try {
            Thread.sleep(TIMER_SETTLE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code call}, which must fail with this Query error code, HTTP status and message. */
    protected static AmazonServiceException assertError(ThrowingCallable call, String code, int status, String message) {
        AmazonServiceException e = org.assertj.core.api.Assertions.catchThrowableOfType(call, AmazonServiceException.class);
        assertThat(e).as("expected error " + code).isNotNull();
        assertThat(e.getErrorCode()).isEqualTo(code);
        assertThat(e.getStatusCode()).isEqualTo(status);
        if (message != null) {
            assertThat(e.getErrorMessage()).isEqualTo(message);
        }
        assertThat(e.getErrorType()).isEqualTo(AmazonServiceException.ErrorType.Client);
        assertThat(e.getRequestId()).isNotBlank();
        return e;
    }
}
