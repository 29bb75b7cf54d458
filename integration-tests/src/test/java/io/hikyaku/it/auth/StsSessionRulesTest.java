package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.IdentityReload;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;
import software.amazon.awssdk.services.sts.model.StsException;

/**
 * STS through the AWS SDK against the real server: GetSessionToken credentials cannot mint more, a
 * malformed session policy is MalformedPolicyDocument, and a reload that removes the user ends the
 * sessions it asked for at once.
 */
class StsSessionRulesTest {

    static final String A = "111111111111";
    static final String BOB = "AKIABOB0000000000001";
    static final String BOB_SECRET = "bob/secret/0123456789abcdefghijklmnopqrst";

    static String config(boolean withBob) {
        return """
                accounts:
                  - id: "111111111111"
                    rootKeys:
                      - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                    users:
                """ + (withBob ? """
                      - name: bob
                        accessKeys:
                          - {accessKeyId: AKIABOB0000000000001, secretAccessKeyEnv: BOB_SECRET}
                        policies:
                          work: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: ["sqs:SendMessage", "sts:AssumeRole"], Resource: "*"}]}
                """ : """
                      - name: carol
                        accessKeys:
                          - {accessKeyId: AKIACAROL00000000001, secretAccessKeyEnv: BOB_SECRET}
                """) + """
                    roles:
                      - name: worker
                        trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {AWS: "arn:aws:iam::111111111111:root"}, Action: "sts:AssumeRole"}]}
                        policies:
                          work: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:*", Resource: "*"}]}
                """;
    }

    @TempDir
    Path dir;

    private HikyakuServer server;
    private final Function<String, String> env = Map.of("BOB_SECRET", BOB_SECRET)::get;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sessionCredentialsFollowAwsRulesAndEndWithTheirUser() throws Exception {
        Path file = dir.resolve("hikyaku.yaml");
        Files.writeString(file, config(true));
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null, A)));
        server = HikyakuServer.start(cfg, SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(IdentityReload.load(file, env)));
        IdentityReload reload = new IdentityReload(file, env, server);
        String orders = server.endpoint() + "/" + A + "/orders";

        try (StsClient bob = sts(AwsBasicCredentials.create(BOB, BOB_SECRET))) {
            Credentials session = bob.getSessionToken().credentials();
            AwsSessionCredentials asSession = AwsSessionCredentials.create(session.accessKeyId(), session.secretAccessKey(), session.sessionToken());
            try (StsClient fromSession = sts(asSession); SqsClient sqs = sqs(asSession)) {
                StsException again = catchThrowableOfType(StsException.class, fromSession::getSessionToken);
                assertThat(again.statusCode()).isEqualTo(403);
                assertThat(again.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
                assertThat(again.awsErrorDetails().errorMessage()).isEqualTo("Cannot call GetSessionToken with session credentials");
                assertThat(fromSession.getCallerIdentity().arn()).isEqualTo("arn:aws:iam::111111111111:user/bob");
                assertThat(sqs.sendMessage(b -> b.queueUrl(orders).messageBody("from the session")).messageId()).isNotEmpty();

                StsException malformed = catchThrowableOfType(StsException.class, () -> bob.assumeRole(b -> b
                        .roleArn("arn:aws:iam::111111111111:role/worker").roleSessionName("s1").policy("{\"Statement\": \"everything\"}")));
                assertThat(malformed.statusCode()).isEqualTo(400);
                assertThat(malformed.awsErrorDetails().errorCode()).isEqualTo("MalformedPolicyDocument");
                assertThat(malformed.awsErrorDetails().errorMessage()).isEqualTo("Syntax errors in policy.");

                Files.writeString(file, config(false)); // bob removed
                assertThat(reload.reload()).isTrue();
                SqsException ended = catchThrowableOfType(SqsException.class,
                        () -> sqs.sendMessage(b -> b.queueUrl(orders).messageBody("after bob left")));
                assertThat(ended.awsErrorDetails().errorCode()).isEqualTo("InvalidClientTokenId");
            }
        }
    }

    private StsClient sts(AwsCredentials credentials) {
        return StsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private SqsClient sqs(AwsCredentials credentials) {
        return SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }
}
