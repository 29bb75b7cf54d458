package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.push.PushConfig;
import io.hikyaku.pushtests.support.JavaEndpoint;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.signer.Aws4Signer;
import software.amazon.awssdk.auth.signer.params.Aws4SignerParams;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * With {@code auth sigv4}: a mapping belongs to the account whose signed request created it, and its
 * pollers act in that account. They poll that account's own queues; a mapping of another account's
 * queue is refused, as that account's own SQS calls would be, without saying whether the queue exists.
 * A function belongs to one account too: another account's mapping cannot invoke it (issue 35).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MappingAccountTest {

    private static final String A = "111111111111";
    private static final String B = "222222222222";
    private static final String KEY_A = "AKIAROOTAAAAAAAAAAAA";
    private static final String SECRET_A = "rootA/secret/0123456789abcdefghijklmnopq";
    private static final String KEY_B = "AKIAROOTBBBBBBBBBBBB";
    private static final String SECRET_B = "rootB/secret/0123456789abcdefghijklmnopq";
    private static final String MAPPINGS = "/2015-03-31/event-source-mappings/";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG = """
            accounts:
              - id: "111111111111"
                rootKeys:
                  - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
              - id: "222222222222"
                rootKeys:
                  - {accessKeyId: AKIAROOTBBBBBBBBBBBB, secretAccessKey: "rootB/secret/0123456789abcdefghijklmnopq"}
            """;

    private JavaEndpoint function;
    private HikyakuServer server;
    private String endpoint;
    private SqsClient sqsA;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    void start() throws Exception {
        function = new JavaEndpoint(null);
        Identities identities = new IdentitiesConfig(Map.<String, String>of()::get).parse(ConfigFile.parse(CONFIG).accounts(), "test");
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY)
                .withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null, A),
                        new QueueDefinition("billing", Map.of(), Map.of(), null, null, B)))
                .withPush(new PushConfig(List.of(new FunctionConfig("fn", function.url(), 5, Map.of("X-Api-Key", "secret-of-A"), "signing-secret-of-A", A)), List.of()));
        server = HikyakuServer.start(cfg, SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities));
        endpoint = server.endpoint();
        sqsA = SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY_A, SECRET_A)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build();
    }

    @AfterAll
    void stop() throws Exception {
        if (sqsA != null) {
            sqsA.close();
        }
        if (server != null) {
            server.close();
        }
        function.close();
    }

    private record Response(int status, String errorType, JsonNode body) {}

    /** A Lambda REST call signed with SigV4 (service {@code lambda}) by the given key. */
    private Response lambda(String key, String secret, String method, String path, String body) throws Exception {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.fromValue(method))
                .uri(URI.create(endpoint + path)).putHeader("Content-Type", "application/json")
                .contentStreamProvider(() -> new ByteArrayInputStream(bytes)).build();
        SdkHttpFullRequest signed = Aws4Signer.create().sign(request, Aws4SignerParams.builder()
                .awsCredentials(AwsBasicCredentials.create(key, secret)).signingName("lambda").signingRegion(Region.US_EAST_1).build());
        HttpRequest.Builder b = HttpRequest.newBuilder(signed.getUri())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(bytes));
        Set<String> restricted = Set.of("host", "content-length");
        signed.headers().forEach((name, values) -> {
            if (!restricted.contains(name.toLowerCase())) {
                values.forEach(v -> b.header(name, v));
            }
        });
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.headers().firstValue("x-amzn-ErrorType").orElse(null),
                r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body()));
    }

    private static String arn(String account, String queue) {
        return "arn:aws:sqs:us-east-1:" + account + ":" + queue;
    }

    @Test
    void aMappingPollsOnlyQueuesOfTheAccountThatCreatedIt() throws Exception {
        // B may not map A's queue; an existing and a missing queue of A get the same answer
        for (String queue : List.of("orders", "no-such-queue")) {
            Response refused = lambda(KEY_B, SECRET_B, "POST", MAPPINGS,
                    "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"" + arn(A, queue) + "\"}");
            assertThat(refused.status()).as(refused.body().toString()).isEqualTo(400);
            assertThat(refused.errorType()).isEqualTo("InvalidParameterValueException");
            assertThat(refused.body().path("message").asText())
                    .isEqualTo("The provided execution role does not have permissions to call ReceiveMessage on SQS");
        }

        Response created = lambda(KEY_A, SECRET_A, "POST", MAPPINGS, "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"" + arn(A, "orders") + "\"}");
        assertThat(created.status()).as(created.body().toString()).isEqualTo(202);
        assertThat(created.body().path("FunctionArn").asText()).isEqualTo("arn:aws:lambda:us-east-1:" + A + ":function:fn");
        String uuid = created.body().path("UUID").asText();

        // the mapping is A's: B neither sees nor changes it
        assertThat(lambda(KEY_B, SECRET_B, "GET", MAPPINGS + uuid, null).status()).isEqualTo(404);
        assertThat(lambda(KEY_B, SECRET_B, "DELETE", MAPPINGS + uuid, null).status()).isEqualTo(404);
        assertThat(lambda(KEY_B, SECRET_B, "GET", MAPPINGS, null).body().path("EventSourceMappings")).isEmpty();

        // its pollers receive and delete in A's queue
        String ordersUrl = sqsA.getQueueUrl(b -> b.queueName("orders")).queueUrl();
        sqsA.sendMessage(b -> b.queueUrl(ordersUrl).messageBody("for A"));
        await("the message delivered", () -> !function.recordsFor(arn(A, "orders")).isEmpty());
        assertThat(function.recordsFor(arn(A, "orders"))).extracting(m -> m.getBody()).containsExactly("for A");
        await("the message deleted", () -> visibleOrInFlight(ordersUrl) == 0);
        assertThat(lambda(KEY_A, SECRET_A, "DELETE", MAPPINGS + uuid, null).status()).isEqualTo(202);
    }

    @Test
    void aMappingMayNotInvokeAnotherAccountsFunction() throws Exception {
        // fn is A's (functions[].account); B names it by name, by partial and by full ARN: Lambda's "not found"
        Map<String, String> names = Map.of(
                "fn", "arn:aws:lambda:us-east-1:" + B + ":function:fn",
                A + ":function:fn", "arn:aws:lambda:us-east-1:" + B + ":function:fn",
                "arn:aws:lambda:us-east-1:" + A + ":function:fn", "arn:aws:lambda:us-east-1:" + A + ":function:fn");
        for (Map.Entry<String, String> name : names.entrySet()) {
            Response refused = lambda(KEY_B, SECRET_B, "POST", MAPPINGS,
                    "{\"FunctionName\":\"" + name.getKey() + "\",\"EventSourceArn\":\"" + arn(B, "billing") + "\"}");
            assertThat(refused.status()).as(name.getKey() + ": " + refused.body()).isEqualTo(404);
            assertThat(refused.errorType()).isEqualTo("ResourceNotFoundException");
            assertThat(refused.body().path("message").asText()).isEqualTo("Function not found: " + name.getValue());
        }
        assertThat(lambda(KEY_B, SECRET_B, "GET", MAPPINGS, null).body().path("EventSourceMappings")).isEmpty();
        assertThat(function.recordsFor(arn(B, "billing"))).isEmpty();
    }

    private long visibleOrInFlight(String url) {
        Map<QueueAttributeName, String> a = sqsA.getQueueAttributes(b -> b.queueUrl(url).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
        return Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                + Long.parseLong(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }
}
