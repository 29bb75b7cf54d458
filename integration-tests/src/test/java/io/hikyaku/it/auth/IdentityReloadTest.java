package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
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
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Identities reloaded from the config file while the server runs (what SIGHUP does, through the
 * same {@link IdentityReload#reload()}): a new key works at once, a removed key is refused, a changed
 * policy decides the next request, and a broken file is refused with the old identities kept.
 */
class IdentityReloadTest {

    static final String A = "111111111111";
    static final String ROOT = "AKIAROOTAAAAAAAAAAAA";
    static final String ROOT_SECRET = "rootA/secret/0123456789abcdefghijklmnopq";
    static final String BOB_OLD = "AKIABOB0000000000001";
    static final String BOB_NEW = "AKIABOB0000000000002";
    static final String BOB_SECRET = "bob/secret/0123456789abcdefghijklmnopqrst";

    /** bob with key {@code key}, allowed sqs:SendMessage on queue {@code queue} only. */
    static String config(String key, String queue) {
        return """
                accounts:
                  - id: "111111111111"
                    rootKeys:
                      - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                    users:
                      - name: bob
                        accessKeys:
                          - {accessKeyId: %s, secretAccessKeyEnv: BOB_SECRET}
                        policies:
                          send: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:SendMessage", Resource: "arn:aws:sqs:*:111111111111:%s"}]}
                """.formatted(key, queue);
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
    void aReloadPutsNewKeysAndPoliciesInForceAndABrokenFileKeepsTheOldOnes() throws Exception {
        Path file = dir.resolve("hikyaku.yaml");
        Files.writeString(file, config(BOB_OLD, "orders"));
        Identities identities = IdentityReload.load(file, env);
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null, A),
                        new QueueDefinition("billing", Map.of(), Map.of(), null, null, A)));
        server = HikyakuServer.start(cfg, SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities));
        IdentityReload reload = new IdentityReload(file, env, server);
        String orders = server.endpoint() + "/" + A + "/orders";
        String billing = server.endpoint() + "/" + A + "/billing";

        try (SqsClient oldKey = sqs(BOB_OLD, BOB_SECRET); SqsClient newKey = sqs(BOB_NEW, BOB_SECRET);
             SqsClient root = sqs(ROOT, ROOT_SECRET)) {
            assertThat(oldKey.sendMessage(b -> b.queueUrl(orders).messageBody("before")).messageId()).isNotEmpty();
            assertThat(errorCode(() -> newKey.sendMessage(b -> b.queueUrl(orders).messageBody("x")))).isEqualTo("InvalidClientTokenId");
            assertThat(errorCode(() -> oldKey.sendMessage(b -> b.queueUrl(billing).messageBody("x")))).isEqualTo("AccessDenied");

            // bob's key rotated and his policy moved from orders to billing
            Files.writeString(file, config(BOB_NEW, "billing"));
            assertThat(reload.reload()).isTrue();
            assertThat(errorCode(() -> oldKey.sendMessage(b -> b.queueUrl(orders).messageBody("x")))).isEqualTo("InvalidClientTokenId");
            assertThat(newKey.sendMessage(b -> b.queueUrl(billing).messageBody("after")).messageId()).isNotEmpty();
            assertThat(errorCode(() -> newKey.sendMessage(b -> b.queueUrl(orders).messageBody("x")))).isEqualTo("AccessDenied");

            // broken files are refused whole: bad YAML, an invalid policy, a duplicate key id
            for (String broken : List.of("accounts: [ {id: \"111111111111\"",
                    config(BOB_OLD, "orders").replace("Effect: Allow", "Effect: Perhaps"),
                    config(BOB_OLD, "orders").replace("AKIAROOTAAAAAAAAAAAA", BOB_OLD))) {
                Files.writeString(file, broken);
                assertThat(reload.reload()).as(broken).isFalse();
                assertThat(newKey.sendMessage(b -> b.queueUrl(billing).messageBody("kept")).messageId()).isNotEmpty();
                assertThat(errorCode(() -> oldKey.sendMessage(b -> b.queueUrl(orders).messageBody("x")))).isEqualTo("InvalidClientTokenId");
            }
            assertThat(root.getQueueAttributes(b -> b.queueUrl(billing).attributeNamesWithStrings("ApproximateNumberOfMessages"))
                    .attributesAsStrings().get("ApproximateNumberOfMessages")).isEqualTo("4"); // after, and kept three times
        }
    }

    @Test
    void startRefusesAFileWithAnInvalidPolicyAsAReloadWould() throws Exception {
        Path file = dir.resolve("hikyaku.yaml");
        Files.writeString(file, config(BOB_OLD, "orders").replace("Effect: Allow", "Effect: Maybe"));
        assertThatThrownBy(() -> IdentityReload.load(file, env)).hasMessageContaining("user bob, policy send")
                .hasMessageNotContaining(BOB_SECRET);
    }

    private SqsClient sqs(String keyId, String secret) {
        return SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(keyId, secret)))
                .httpClient(UrlConnectionHttpClient.builder().build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    private static String errorCode(Runnable call) {
        try {
            call.run();
        } catch (SqsException e) {
            return e.awsErrorDetails().errorCode();
        }
        return "no error";
    }
}
