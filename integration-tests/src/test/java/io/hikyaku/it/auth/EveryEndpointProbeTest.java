package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Identities;
import io.hikyaku.identity.IdentitiesConfig;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.QueueDefinition;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigFile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Issue 35, "every endpoint probed": a real server with {@code auth sigv4} and durable storage (so the
 * admin endpoint exists), and every endpoint it serves asked three ways about account A's resources:
 * unsigned, signed by account B's root (a foreign account), and signed by A's user {@code nobody},
 * which has a key and no policy. Each is refused in its service's error shape, or, for the deliberately
 * public endpoints, answered without naming anything of an account (A's queue, topic, message body).
 * KMS (JSON 1.1) and the Scheduler (REST-JSON) are also probed with a wrong secret, a scope naming
 * another service and an operation they do not have; no refusal renders an anonymous caller's account
 * as {@code null} in an ARN.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EveryEndpointProbeTest {

    static final String A = "111111111111";
    static final String B = "222222222222";
    static final String ROOT_A = "AKIAROOTAAAAAAAAAAAA";
    static final String ROOT_A_SECRET = "rootA/secret/0123456789abcdefghijklmnopq";
    static final String ROOT_B = "AKIAROOTBBBBBBBBBBBB";
    static final String ROOT_B_SECRET = "rootB/secret/0123456789abcdefghijklmnopq";
    static final String NOBODY = "AKIANOBODY0000000001";
    static final String NOBODY_SECRET = "nobody/secret/0123456789abcdefghijklmno";

    static final String CONFIG = """
            accounts:
              - id: "111111111111"
                rootKeys:
                  - {accessKeyId: AKIAROOTAAAAAAAAAAAA, secretAccessKey: "rootA/secret/0123456789abcdefghijklmnopq"}
                users:
                  - name: nobody
                    accessKeys:
                      - {accessKeyId: AKIANOBODY0000000001, secretAccessKey: "nobody/secret/0123456789abcdefghijklmno"}
                roles:
                  - name: worker
                    trustPolicy: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {AWS: "arn:aws:iam::111111111111:root"}, Action: "sts:AssumeRole"}]}
                    policies:
                      work: {Version: "2012-10-17", Statement: [{Effect: Allow, Action: "sqs:*", Resource: "*"}]}
              - id: "222222222222"
                rootKeys:
                  - {accessKeyId: AKIAROOTBBBBBBBBBBBB, secretAccessKey: "rootB/secret/0123456789abcdefghijklmnopq"}
            """;

    /** Names that must not appear in an answer to anyone but A: A's queue, topic and message body. */
    static final List<String> A_SECRETS = List.of("orders", "alerts-a", "body-of-a");

    private static final String JSON_TYPE = "application/x-amz-json-1.0";
    private static final String FORM_TYPE = "application/x-www-form-urlencoded; charset=utf-8";
    private static final String ORDERS = "arn:aws:sqs:us-east-1:" + A + ":orders";
    private static final String MAPPING = "arn:aws:lambda:us-east-1:" + A + ":event-source-mapping:00000000-0000-0000-0000-000000000000";
    private static final String TOPIC = "arn:aws:sns:us-east-1:" + A + ":alerts-a";

    @TempDir
    static Path dataDir;
    private HikyakuServer server;
    private String endpoint;
    private String ordersUrl;
    private SignedHttp http;

    /** Who asks: its key (null = unsigned) and what it is called in failure messages. */
    enum Caller {
        UNSIGNED(null, null), FOREIGN_ACCOUNT(ROOT_B, ROOT_B_SECRET), NO_RIGHTS(NOBODY, NOBODY_SECRET);

        final String key;
        final String secret;

        Caller(String key, String secret) {
            this.key = key;
            this.secret = secret;
        }
    }

    @BeforeAll
    void start() {
        Identities identities = new IdentitiesConfig(Map.<String, String>of()::get).parse(ConfigFile.parse(CONFIG).accounts(), "test");
        ServerConfig cfg = ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withMetrics(true)
                .withQueues(List.of(new QueueDefinition("orders", Map.of(), Map.of(), null, null, A),
                        new QueueDefinition("billing", Map.of(), Map.of(), null, null, B)));
        server = HikyakuServer.start(cfg, SecurityConfig.defaults().withAuth(AuthMode.SIGV4).withIdentities(identities));
        endpoint = server.endpoint();
        ordersUrl = endpoint + "/" + A + "/orders";
        http = new SignedHttp(endpoint);
        try (SqsClient root = SqsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ROOT_A, ROOT_A_SECRET)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build();
             SnsClient sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ROOT_A, ROOT_A_SECRET)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
            root.sendMessage(b -> b.queueUrl(ordersUrl).messageBody("body-of-a"));
            assertThat(sns.createTopic(b -> b.name("alerts-a")).topicArn()).isEqualTo(TOPIC);
        }
        server.cloudWatch().sampleNow();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RawHttp.Response send(Caller caller, String service, String method, String pathAndQuery, Map<String, String> headers,
                                  String body) {
        SdkHttpFullRequest r = http.request(method, pathAndQuery, headers, body);
        return http.send(caller.key == null ? r : SignedHttp.sign(r, caller.key, caller.secret, service, Instant.now()));
    }

    private RawHttp.Response sendBytes(Caller caller, String service, String path, Map<String, String> headers, byte[] body) {
        SdkHttpFullRequest.Builder b = http.request("POST", path, headers, null).toBuilder()
                .contentStreamProvider(() -> new java.io.ByteArrayInputStream(body));
        SdkHttpFullRequest r = b.build();
        return http.send(caller.key == null ? r : SignedHttp.sign(r, caller.key, caller.secret, service, Instant.now()));
    }

    /** What each caller gets; every failed expectation is collected so one run shows them all. */
    private final List<String> failures = new ArrayList<>();

    @BeforeEach
    void noFailuresYet() {
        failures.clear();
    }

    private void expect(String what, Caller caller, RawHttp.Response r, int status, String... fragments) {
        String label = what + " as " + caller + ": HTTP " + r.status() + " " + r.body();
        if (r.status() != status) {
            failures.add(label + " (expected HTTP " + status + ")");
            return;
        }
        for (String f : fragments) {
            if (!r.body().contains(f)) {
                failures.add(label + " (expected it to contain " + f + ")");
            }
        }
        if (status == 200) {
            revealsNothingOfA(label, r.body());
        } else if (r.body().contains("body-of-a")) {
            failures.add(label + " (a refusal carries A's message body)");
        }
    }

    private void revealsNothingOfA(String label, String body) {
        for (String s : A_SECRETS) {
            if (body.contains(s)) {
                failures.add(label + " (reveals " + s + ")");
            }
        }
    }

    private void assertNoFailures() {
        assertThat(failures).as(String.join("\n", failures)).isEmpty();
    }

    /** The refusal each caller gets from a service: unsigned = anonymous denied; signed = access denied. */
    private void refused(String what, Function<Caller, RawHttp.Response> request, String unsigned, String denied) {
        for (Caller c : Caller.values()) {
            RawHttp.Response r = request.apply(c);
            expect(what, c, r, 403, c == Caller.UNSIGNED ? unsigned : denied);
        }
    }

    @Test
    void sqsJsonAndQueryAreRefused() {
        for (String op : new String[] {"ReceiveMessage", "GetQueueAttributes", "SendMessage", "PurgeQueue", "DeleteQueue"}) {
            String extra = op.equals("SendMessage") ? ",\"MessageBody\":\"x\"" : "";
            refused("SQS JSON " + op, c -> send(c, "sqs", "POST", "/", Map.of("Content-Type", JSON_TYPE, "X-Amz-Target", "AmazonSQS." + op),
                    "{\"QueueUrl\":\"" + ordersUrl + "\"" + extra + "}"),
                    "Access to the resource https://sqs.us-east-1.amazonaws.com/" + A + "/orders is denied.", "AccessDenied");
            String form = "Action=" + op + "&QueueUrl=" + ordersUrl + (extra.isEmpty() ? "" : "&MessageBody=x") + "&Version=2012-11-05";
            refused("SQS Query POST " + op, c -> send(c, "sqs", "POST", "/" + A + "/orders", Map.of("Content-Type", FORM_TYPE), form),
                    "<Code>AccessDenied</Code><Message>Access to the resource", "<Code>AccessDenied</Code>");
            refused("SQS Query GET " + op, c -> send(c, "sqs", "GET", "/" + A + "/orders?" + form, Map.of(), null),
                    "<Code>AccessDenied</Code><Message>Access to the resource", "<Code>AccessDenied</Code>");
        }
        // ListQueues acts on the caller's own account: refused unsigned and without rights, and the
        // foreign account sees only its own queue
        for (Caller c : Caller.values()) {
            RawHttp.Response r = send(c, "sqs", "POST", "/", Map.of("Content-Type", JSON_TYPE, "X-Amz-Target", "AmazonSQS.ListQueues"), "{}");
            if (c == Caller.FOREIGN_ACCOUNT) {
                expect("SQS ListQueues", c, r, 200, "/" + B + "/billing");
            } else {
                expect("SQS ListQueues", c, r, 403, c == Caller.UNSIGNED ? "Access to the resource https://sqs.us-east-1.amazonaws.com/ is denied."
                        : "sqs:listqueues on resource: * because no identity-based policy allows");
            }
        }
        assertNoFailures();
    }

    @Test
    void stsIsRefused() {
        String form = "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A" + A + "%3Arole%2Fworker&RoleSessionName=probe";
        refused("STS AssumeRole", c -> send(c, "sts", "POST", "/", Map.of("Content-Type", FORM_TYPE), form),
                "<Code>MissingAuthenticationToken</Code>", "<Code>AccessDenied</Code>");
        // GetCallerIdentity is every key's right; unsigned it is refused
        expect("STS GetCallerIdentity", Caller.UNSIGNED, send(Caller.UNSIGNED, "sts", "POST", "/", Map.of("Content-Type", FORM_TYPE),
                "Action=GetCallerIdentity&Version=2011-06-15"), 403, "<Code>MissingAuthenticationToken</Code>");
        assertNoFailures();
    }

    @Test
    void cloudWatchInEachProtocolIsRefusedOrAnswersForTheCallersAccountOnly() throws Exception {
        String query = "Action=ListMetrics&Version=2010-08-01&Namespace=AWS%2FSQS";
        String json = "{\"Namespace\":\"AWS/SQS\"}";
        byte[] cbor = new ObjectMapper(new CBORFactory()).writeValueAsBytes(Map.of("Namespace", "AWS/SQS"));
        for (Caller c : Caller.values()) {
            RawHttp.Response q = send(c, "monitoring", "POST", "/", Map.of("Content-Type", FORM_TYPE), query);
            RawHttp.Response j = send(c, "monitoring", "POST", "/", Map.of("Content-Type", JSON_TYPE,
                    "X-Amz-Target", "GraniteServiceVersion20100801.ListMetrics"), json);
            RawHttp.Response r = sendBytes(c, "monitoring", "/service/GraniteServiceVersion20100801/operation/ListMetrics",
                    Map.of("Content-Type", "application/cbor", "Accept", "application/cbor", "smithy-protocol", "rpc-v2-cbor"), cbor);
            switch (c) {
                case UNSIGNED -> {
                    expect("CloudWatch Query", c, q, 403, "<Code>AccessDenied</Code>", "User: anonymous is not authorized");
                    expect("CloudWatch JSON", c, j, 403, "AccessDeniedException", "User: anonymous is not authorized");
                    expect("CloudWatch CBOR", c, r, 403, "AccessDenied");
                }
                case FOREIGN_ACCOUNT -> {
                    // B lists metrics of its own account (none yet), never orders
                    expect("CloudWatch Query", c, q, 200, "<ListMetricsResult>");
                    expect("CloudWatch JSON", c, j, 200, "\"Metrics\"");
                    expect("CloudWatch CBOR", c, r, 200, "Metrics");
                }
                case NO_RIGHTS -> {
                    expect("CloudWatch Query", c, q, 403, "<Code>AccessDenied</Code>", "cloudwatch:ListMetrics");
                    expect("CloudWatch JSON", c, j, 403, "AccessDenied", "cloudwatch:ListMetrics");
                    expect("CloudWatch CBOR", c, r, 403, "AccessDenied");
                }
            }
        }
        // B asking for A's queue's data by name gets nothing of A's
        String data = "Action=GetMetricStatistics&Version=2010-08-01&Namespace=AWS%2FSQS&MetricName=NumberOfMessagesSent"
                + "&Dimensions.member.1.Name=QueueName&Dimensions.member.1.Value=orders&Period=60&Statistics.member.1=Sum"
                + "&StartTime=" + Instant.now().minusSeconds(3600) + "&EndTime=" + Instant.now().plusSeconds(60);
        RawHttp.Response b = send(Caller.FOREIGN_ACCOUNT, "monitoring", "POST", "/", Map.of("Content-Type", FORM_TYPE), data);
        assertThat(b.status()).as(b.body()).isEqualTo(200);
        assertThat(b.body()).doesNotContain("<Sum>");
        assertNoFailures();
    }

    @Test
    void theLambdaMappingApiAndItsTagsAreRefused() {
        String create = "{\"EventSourceArn\":\"" + ORDERS + "\",\"FunctionName\":\"f\"}";
        Map<String, String> jsonHeaders = Map.of("Content-Type", "application/json");
        for (Caller c : Caller.values()) {
            RawHttp.Response list = send(c, "lambda", "GET", "/2015-03-31/event-source-mappings/?EventSourceArn=" + ORDERS, Map.of(), null);
            RawHttp.Response get = send(c, "lambda", "GET", "/2015-03-31/event-source-mappings/00000000-0000-0000-0000-000000000000",
                    Map.of(), null);
            RawHttp.Response make = send(c, "lambda", "POST", "/2015-03-31/event-source-mappings/", jsonHeaders, create);
            RawHttp.Response listTags = send(c, "lambda", "GET", "/2017-03-31/tags/" + MAPPING, Map.of(), null);
            RawHttp.Response tag = send(c, "lambda", "POST", "/2017-03-31/tags/" + MAPPING, jsonHeaders, "{\"Tags\":{\"k\":\"v\"}}");
            RawHttp.Response untag = send(c, "lambda", "DELETE", "/2017-03-31/tags/" + MAPPING + "?tagKeys=k", Map.of(), null);
            String denied = c == Caller.UNSIGNED ? "\"message\":\"User: anonymous is not authorized to perform: lambda:"
                    : c == Caller.FOREIGN_ACCOUNT ? "because the resource is not in the caller's account"
                    : "\"message\":\"User: arn:aws:iam::" + A + ":user/nobody is not authorized to perform: lambda:";
            if (c == Caller.FOREIGN_ACCOUNT) {
                // B's root may list its own account's mappings (none on A's queue), and may not create one on A's queue
                expect("Lambda ListEventSourceMappings", c, list, 200, "\"EventSourceMappings\":[]");
                expect("Lambda CreateEventSourceMapping", c, make, 400,
                        "The provided execution role does not have permissions to call ReceiveMessage on SQS");
                expect("Lambda GetEventSourceMapping", c, get, 404);
            } else {
                expect("Lambda ListEventSourceMappings", c, list, 403, denied);
                expect("Lambda CreateEventSourceMapping", c, make, 403, denied);
                expect("Lambda GetEventSourceMapping", c, get, 403, denied);
            }
            expect("Lambda ListTags", c, listTags, 403, denied);
            expect("Lambda TagResource", c, tag, 403, denied);
            expect("Lambda UntagResource", c, untag, 403, denied);
            for (RawHttp.Response r : List.of(list, get, make, listTags, tag, untag)) {
                lambdaShape("Lambda", c, r);
                noNullAccount("Lambda", c, r);
            }
        }
        assertNoFailures();
    }

    /** A refusal's shape: Lambda names it in a header (x-amzn-ErrorType), the body carries the message. */
    private void lambdaShape(String what, Caller c, RawHttp.Response r) {
        if (r.status() == 403 && !"AccessDeniedException".equals(r.header("x-amzn-ErrorType"))) {
            failures.add(what + " as " + c + ": x-amzn-ErrorType " + r.header("x-amzn-ErrorType"));
        }
    }

    @Test
    void snsIsRefused() {
        String publish = "Action=Publish&Version=2010-03-31&TopicArn=" + TOPIC + "&Message=x";
        String attributes = "Action=GetTopicAttributes&Version=2010-03-31&TopicArn=" + TOPIC;
        for (Caller c : new Caller[] {Caller.UNSIGNED, Caller.NO_RIGHTS}) {
            String who = c == Caller.UNSIGNED ? "User: anonymous" : "User: arn:aws:iam::" + A + ":user/nobody";
            expect("SNS Publish", c, send(c, "sns", "POST", "/", Map.of("Content-Type", FORM_TYPE), publish), 403,
                    "<Code>AuthorizationError</Code><Message>" + who + " is not authorized to perform: sns:Publish on resource: " + TOPIC);
            expect("SNS GetTopicAttributes", c, send(c, "sns", "POST", "/", Map.of("Content-Type", FORM_TYPE), attributes), 403,
                    "<Code>AuthorizationError</Code><Message>" + who + " is not authorized to perform: sns:GetTopicAttributes");
        }
        for (Caller c : Caller.values()) {
            RawHttp.Response r = send(c, "sns", "POST", "/", Map.of("Content-Type", FORM_TYPE), "Action=ListTopics&Version=2010-03-31");
            if (c == Caller.FOREIGN_ACCOUNT) {
                expect("SNS ListTopics", c, r, 200, "<ListTopicsResponse");
            } else {
                expect("SNS ListTopics", c, r, 403, "<Code>AuthorizationError</Code>", "sns:ListTopics");
            }
        }
        assertNoFailures();
    }

    /**
     * Another account's root acting on A's topic. A topic's default policy allows its owner only, so AWS
     * refuses; here (issue 35 probe) it is answered 200, because SNS authorization evaluates the
     * caller's identity policies only (a root may do everything "in its account") and never checks that
     * the topic's account is the caller's, nor the topic policy. Fails until that is fixed.
     */
    @Test
    void anotherAccountCannotPublishToOrReadATopic() {
        Caller c = Caller.FOREIGN_ACCOUNT;
        expect("SNS Publish", c, send(c, "sns", "POST", "/", Map.of("Content-Type", FORM_TYPE),
                "Action=Publish&Version=2010-03-31&TopicArn=" + TOPIC + "&Message=x"), 403, "<Code>AuthorizationError</Code>");
        expect("SNS GetTopicAttributes", c, send(c, "sns", "POST", "/", Map.of("Content-Type", FORM_TYPE),
                "Action=GetTopicAttributes&Version=2010-03-31&TopicArn=" + TOPIC), 403, "<Code>AuthorizationError</Code>");
        assertNoFailures();
    }

    /**
     * The ways an attacker knocks on a signed API beyond the three callers: a signature made with a wrong
     * secret, a valid key whose scope names another service, and A's own root asking for an operation the
     * API does not have.
     */
    private RawHttp.Response badSignature(String service, String method, String path, Map<String, String> headers, String body) {
        SdkHttpFullRequest r = http.request(method, path, headers, body);
        return http.send(SignedHttp.sign(r, ROOT_A, ROOT_A_SECRET + "x", service, Instant.now()));
    }

    private RawHttp.Response asRootOfA(String service, String method, String path, Map<String, String> headers, String body) {
        SdkHttpFullRequest r = http.request(method, path, headers, body);
        return http.send(SignedHttp.sign(r, ROOT_A, ROOT_A_SECRET, service, Instant.now()));
    }

    @Test
    void kmsIsRefusedAsAnAttackerProbesIt() {
        String key;
        try (software.amazon.awssdk.services.kms.KmsClient kms = software.amazon.awssdk.services.kms.KmsClient.builder()
                .endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ROOT_A, ROOT_A_SECRET)))
                .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
            key = kms.createKey(b -> b.description("key-of-a")).keyMetadata().arn();
        }
        Map<String, String> kmsHeaders = Map.of("Content-Type", "application/x-amz-json-1.1", "X-Amz-Target", "TrentService.DescribeKey");
        String describe = "{\"KeyId\":\"" + key + "\"}";
        for (Caller c : Caller.values()) {
            RawHttp.Response r = send(c, "kms", "POST", "/", kmsHeaders, describe);
            String denied = switch (c) {
                case UNSIGNED -> "User: anonymous is not authorized to perform: kms:DescribeKey";
                case FOREIGN_ACCOUNT -> "User: arn:aws:iam::" + B + ":root is not authorized to perform: kms:DescribeKey on resource: " + key;
                case NO_RIGHTS -> "User: arn:aws:iam::" + A + ":user/nobody is not authorized to perform: kms:DescribeKey on resource: " + key;
            };
            expect("KMS DescribeKey", c, r, 400, "AccessDeniedException", denied);
            noNullAccount("KMS DescribeKey", c, r);
            RawHttp.Response list = send(c, "kms", "POST", "/", Map.of("Content-Type", "application/x-amz-json-1.1",
                    "X-Amz-Target", "TrentService.ListKeys"), "{}");
            if (c == Caller.FOREIGN_ACCOUNT) {
                expect("KMS ListKeys", c, list, 200, "\"Keys\"");
                if (list.body().contains(key.substring(key.lastIndexOf('/') + 1))) {
                    failures.add("KMS ListKeys as " + c + " lists A's key: " + list.body());
                }
            } else {
                expect("KMS ListKeys", c, list, 400, "AccessDeniedException", "kms:ListKeys");
            }
        }
        expect("KMS with a bad signature", Caller.FOREIGN_ACCOUNT, badSignature("kms", "POST", "/", kmsHeaders, describe), 403,
                "InvalidSignatureException", "The request signature we calculated does not match the signature you provided.");
        // A's own key, but the scope says sqs: the scope's service answers (SQS), and SQS has no TrentService operation
        expect("KMS signed for sqs", Caller.FOREIGN_ACCOUNT, asRootOfA("sqs", "POST", "/", kmsHeaders, describe), 400,
                "UnknownOperationException", "The operation TrentService.DescribeKey is not valid for this endpoint.");
        expect("KMS unknown operation", Caller.FOREIGN_ACCOUNT, asRootOfA("kms", "POST", "/", Map.of("Content-Type",
                "application/x-amz-json-1.1", "X-Amz-Target", "TrentService.StealKeyMaterial"), describe), 400, "UnknownOperationException");
        assertNoFailures();
    }

    @Test
    void schedulerIsRefusedAsAnAttackerProbesIt() {
        String schedule = "arn:aws:scheduler:us-east-1:" + A + ":schedule/default/nightly";
        String create = "{\"ScheduleExpression\":\"rate(1 day)\",\"FlexibleTimeWindow\":{\"Mode\":\"OFF\"},\"Target\":{\"Arn\":\""
                + ORDERS + "\",\"RoleArn\":\"arn:aws:iam::" + A + ":role/scheduler\",\"Input\":\"body-of-a\"}}";
        Map<String, String> json = Map.of("Content-Type", "application/json");
        expect("Scheduler CreateSchedule", Caller.FOREIGN_ACCOUNT, asRootOfA("scheduler", "POST", "/schedules/nightly", json, create), 200,
                "\"ScheduleArn\":\"" + schedule + "\"");
        failures.clear(); // A's own answer names A's schedule, as it should
        for (Caller c : Caller.values()) {
            RawHttp.Response get = send(c, "scheduler", "GET", "/schedules/nightly", Map.of(), null);
            RawHttp.Response delete = send(c, "scheduler", "DELETE", "/schedules/nightly", Map.of(), null);
            RawHttp.Response list = send(c, "scheduler", "GET", "/schedules", Map.of(), null);
            switch (c) {
                case UNSIGNED -> {
                    expect("Scheduler GetSchedule", c, get, 403, "User: anonymous is not authorized to perform: scheduler:GetSchedule");
                    expect("Scheduler DeleteSchedule", c, delete, 403, "User: anonymous is not authorized to perform: scheduler:DeleteSchedule");
                    expect("Scheduler ListSchedules", c, list, 403, "User: anonymous is not authorized to perform: scheduler:ListSchedules");
                }
                case FOREIGN_ACCOUNT -> { // B's root acts in B: A's schedule is not there, and B lists only its own
                    expect("Scheduler GetSchedule", c, get, 404, "Schedule nightly does not exist.");
                    expect("Scheduler DeleteSchedule", c, delete, 404, "Schedule nightly does not exist.");
                    errorType("Scheduler GetSchedule", c, get, "ResourceNotFoundException");
                    errorType("Scheduler DeleteSchedule", c, delete, "ResourceNotFoundException");
                    expect("Scheduler ListSchedules", c, list, 200, "\"Schedules\":[]");
                }
                case NO_RIGHTS -> {
                    String who = "User: arn:aws:iam::" + A + ":user/nobody is not authorized to perform: ";
                    expect("Scheduler GetSchedule", c, get, 403, who + "scheduler:GetSchedule on resource: " + schedule);
                    expect("Scheduler DeleteSchedule", c, delete, 403, who + "scheduler:DeleteSchedule on resource: " + schedule);
                    expect("Scheduler ListSchedules", c, list, 403, who + "scheduler:ListSchedules");
                }
            }
            for (RawHttp.Response r : List.of(get, delete, list)) {
                noNullAccount("Scheduler", c, r);
                if (r.status() == 403) {
                    errorType("Scheduler", c, r, "AccessDeniedException");
                }
            }
            // another account's group, named by its ARN in a tag call: refused, never tagged
            RawHttp.Response tag = send(c, "scheduler", "POST", "/tags/" + java.net.URLEncoder.encode(
                    "arn:aws:scheduler:us-east-1:" + A + ":schedule-group/default", StandardCharsets.UTF_8), json, "{\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}");
            expect("Scheduler TagResource", c, tag, 403, "is not authorized to perform: scheduler:TagResource");
            errorType("Scheduler TagResource", c, tag, "AccessDeniedException");
            noNullAccount("Scheduler TagResource", c, tag);
        }
        RawHttp.Response badSignature = badSignature("scheduler", "GET", "/schedules/nightly", Map.of(), null);
        expect("Scheduler with a bad signature", Caller.FOREIGN_ACCOUNT, badSignature, 403,
                "The request signature we calculated does not match the signature you provided.");
        RawHttp.Response wrongScope = asRootOfA("sqs", "GET", "/schedules/nightly", Map.of(), null);
        expect("Scheduler signed for sqs", Caller.FOREIGN_ACCOUNT, wrongScope, 403,
                "Credential should be scoped to correct service: 'scheduler'.");
        RawHttp.Response unknown = asRootOfA("scheduler", "PATCH", "/schedules/nightly", json, "{}");
        expect("Scheduler unknown operation", Caller.FOREIGN_ACCOUNT, unknown, 403,
                "is not authorized to perform: PATCH /schedules/nightly because this server does not implement that Scheduler operation");
        errorType("Scheduler unknown operation", Caller.FOREIGN_ACCOUNT, unknown, "AccessDeniedException");
        RawHttp.Response still = asRootOfA("scheduler", "GET", "/schedules/nightly", Map.of(), null);
        assertThat(still.status()).as("A's schedule survives every probe: " + still.body()).isEqualTo(200);
        assertNoFailures();
    }

    /** A REST-JSON error's code is its x-amzn-ErrorType header (the body carries the Message). */
    private void errorType(String what, Caller c, RawHttp.Response r, String type) {
        String header = r.header("x-amzn-ErrorType");
        if (header == null || !header.startsWith(type)) {
            failures.add(what + " as " + c + ": x-amzn-ErrorType " + header + " (expected " + type + ") " + r.body());
        }
    }

    /** An anonymous caller has no account: no refusal may render it as {@code arn:...:null:...}. */
    private void noNullAccount(String what, Caller c, RawHttp.Response r) {
        if (r.body().contains(":null:")) {
            failures.add(what + " as " + c + " names a null account: " + r.body());
        }
    }

    @Test
    void theAdminEndpointNeedsItsToken() {
        for (Caller c : Caller.values()) {
            RawHttp.Response r = send(c, "sqs", "POST", "/_hikyaku/backup", Map.of("Content-Type", "application/json"),
                    "{\"target\":\"" + dataDir.resolveSibling("stolen-backup") + "\"}");
            expect("admin backup", c, r, 403, "missing or wrong x-hikyaku-admin-token");
        }
        assertThat(dataDir.resolveSibling("stolen-backup")).doesNotExist();
        assertNoFailures();
    }

    @Test
    void thePublicEndpointsRevealNothingOfAnAccount() {
        for (Caller c : Caller.values()) {
            expect("health", c, send(c, "sqs", "GET", "/health", Map.of(), null), 200, "ok");
            expect("ready", c, send(c, "sqs", "GET", "/health/ready", Map.of(), null), 200);
            expect("root", c, send(c, "sqs", "GET", "/", Map.of(), null), 200, "\"service\":\"hikyaku\"");
            expect("console", c, send(c, "sqs", "GET", "/console/", Map.of(), null), 200, "<html");
        }
        assertNoFailures();
    }

    /**
     * /metrics names every account's queues: with auth sigv4 a scrape without the metrics credential
     * is refused, whoever signs it. (Being added on another branch: a token file and/or SigV4.)
     */
    @Test
    void metricsAreNotScrapedWithoutTheirCredential() {
        for (Caller c : Caller.values()) {
            RawHttp.Response r = send(c, "sqs", "GET", "/metrics", Map.of(), null);
            if (r.status() != 401 && r.status() != 403) {
                failures.add("metrics as " + c + ": HTTP " + r.status() + " (expected 401 or 403)"
                        + (r.body().contains("orders") ? ", names A's queue orders" : ""));
            }
            revealsNothingOfA("metrics as " + c, r.body());
        }
        assertNoFailures();
    }
}
