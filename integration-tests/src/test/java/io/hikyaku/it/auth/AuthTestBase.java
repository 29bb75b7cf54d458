package io.hikyaku.it.auth;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * A server with {@code auth sigv4} and two configured accounts (a clock the test moves), and SDK v2
 * clients that sign with real keys. Account 111111111111 has a root key, a user alice with two keys
 * allowed only to send to (and look up) orders, and a role worker (every SQS action) that account
 * 222222222222 may assume; each account owns one queue from the config.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AuthTestBase {

    static final String A = "111111111111";
    static final String B = "222222222222";
    static final String ROOT_A = "AKIAROOTAAAAAAAAAAAA";
    static final String ROOT_A_SECRET = "rootA/secret/0123456789abcdefghijklmnopq";
    static final String ALICE_1 = "AKIAALICE00000000001";
    static final String ALICE_2 = "AKIAALICE00000000002";
    static final String ALICE_SECRET = "alice/secret/0123456789abcdefghijklmnopq";
    static final String ALICE_SECRET_2 = "alice/rotated/0123456789abcdefghijklmno";
    static final String ROOT_B = "AKIAROOTBBBBBBBBBBBB";
    static final String ROOT_B_SECRET = "rootB/secret/0123456789abcdefghijklmnopq";
    static final String WORKER_ARN = "arn:aws:iam::" + A + ":role/worker";

    static final String CONFIG = """
            accounts:
              - id: "111111111111"
                rootKeys:
                  - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                users:
                  - name: alice
                    accessKeys:
                      - {accessKeyId: AKIAALICE00000000001, secretAccessKeyEnv: ALICE_SECRET}
                      - {accessKeyId: AKIAALICE00000000002, secretAccessKey: "alice/rotated/0123456789abcdefghijklmno"}
                    policies:
                      send-orders: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: ["sqs:SendMessage", "sqs:GetQueueUrl"], Resource: "arn:aws:sqs:*:111111111111:orders"}]}
                roles:
                  - name: worker
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {AWS: "arn:aws:iam::222222222222:root"}, Action: "sts:AssumeRole"}]}
                    policies:
                      work: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:*", Resource: "*"}]}
                    maxSessionDurationSeconds: 3600
              - id: "222222222222"
                rootKeys:
                  - {accessKeyId: AKIAROOTBBBBBBBBBBBB, secretAccessKey: "rootB/secret/0123456789abcdefghijklmnopq"}
            """;

    protected MutableClock clock;
    protected HikyakuServer server;
    protected String endpoint;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    void startServer() {
        clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        ConfigFile file = ConfigFile.parse(config());
        Identities identities = new IdentitiesConfig(Map.of("ALICE_SECRET", ALICE_SECRET)::get).parse(file.accounts(), "test");
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(clock)
                .withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null, A),
                        new QueueDefinition("billing", Map.of(), Map.of(), null, null, B)));
        server = HikyakuServer.start(configure(cfg), SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities));
        endpoint = server.endpoint();
    }

    /** The accounts section: a test class may add its own users and roles to {@link #CONFIG}. */
    protected String config() {
        return CONFIG;
    }

    /** The server's configuration: a test class may change it (in-memory, fake clock, port 0, the two queues). */
    protected ServerConfig configure(ServerConfig config) {
        return config;
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

    /** Sets the server's clock relative to real time (the SDKs sign with real time). */
    void serverClockOffset(Duration offset) {
        Duration now = Duration.between(clock.instant(), Instant.now().plus(offset));
        clock.advance(now);
    }

    SqsClient sqs(String keyId, String secret) {
        return sqs(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)));
    }

    SqsClient sqs(AwsCredentials credentials) {
        return sqs(StaticCredentialsProvider.create(credentials));
    }

    SqsClient sqs(AwsCredentialsProvider credentials) {
        SqsClient c = SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
        closeables.add(c);
        return c;
    }

    StsClient sts(String keyId, String secret) {
        return sts(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)));
    }

    StsClient sts(AwsCredentialsProvider credentials) {
        StsClient c = StsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
        closeables.add(c);
        return c;
    }
}
