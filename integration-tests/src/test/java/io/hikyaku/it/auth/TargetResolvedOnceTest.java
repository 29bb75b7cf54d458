package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpFullRequest;

/**
 * Issue 35, reproduced against a real server with {@code auth sigv4} and real keys: each request
 * below was answered 200 (or acted on a resource it was not authorized on) before the target was
 * resolved once for authorization and execution. alice may only SendMessage and GetQueueUrl on
 * orders; account B has no grant on A's queues.
 */
class TargetResolvedOnceTest extends AuthTestBase {

    private static final String JSON_TYPE = "application/x-amz-json-1.0";
    private static final String FORM_TYPE = "application/x-www-form-urlencoded; charset=utf-8";

    private SignedHttp http() {
        return new SignedHttp(endpoint);
    }

    private RawHttp.Response json(String path, String op, String body, String key, String secret, String scope) {
        SdkHttpFullRequest r = http().request("POST", path, Map.of("Content-Type", JSON_TYPE, "X-Amz-Target", "AmazonSQS." + op), body);
        return http().send(SignedHttp.sign(r, key, secret, scope, clock.instant()));
    }

    private RawHttp.Response queryPost(String path, String form, String key, String secret) {
        SdkHttpFullRequest r = http().request("POST", path, Map.of("Content-Type", FORM_TYPE), form);
        return http().send(SignedHttp.sign(r, key, secret, "sqs", clock.instant()));
    }

    private RawHttp.Response queryGet(String pathAndQuery, String key, String secret) {
        return http().send(SignedHttp.sign(http().request("GET", pathAndQuery, Map.of(), null), key, secret, "sqs", clock.instant()));
    }

    @Test
    void anEmptyQueueUrlWithTheQueueInThePathIsAuthorizedOnThatQueue() {
        sqs(ROOT_A, ROOT_A_SECRET).sendMessage(b -> b.queueUrl(endpoint + "/" + A + "/orders").messageBody("secret"));
        for (String op : new String[] {"ReceiveMessage", "GetQueueAttributes", "DeleteQueue"}) {
            for (String path : new String[] {"/orders", "/" + A + "/orders", "/queue/orders"}) {
                if (path.equals("/queue/orders")) {
                    continue; // ElasticMQ form names the default account, not A (checked below)
                }
                RawHttp.Response j = json(path, op, "{\"QueueUrl\":\"\"}", ALICE_1, ALICE_SECRET, "sqs");
                assertThat(j.status()).as(op + " JSON " + path + ": " + j.body()).isEqualTo(403);
                assertThat(j.body()).contains("AccessDenied").contains("sqs:" + op.toLowerCase(java.util.Locale.ROOT))
                        .doesNotContain("secret");
                RawHttp.Response q = queryPost(path, "Action=" + op + "&QueueUrl=&Version=2012-11-05", ALICE_1, ALICE_SECRET);
                assertThat(q.status()).as(op + " Query POST " + path + ": " + q.body()).isEqualTo(403);
                RawHttp.Response g = queryGet(path + "?Action=" + op + "&QueueUrl=&Version=2012-11-05", ALICE_1, ALICE_SECRET);
                assertThat(g.status()).as(op + " GET " + path + ": " + g.body()).isEqualTo(403);
            }
        }
        // SendMessage: alice may send to orders, account B may not.
        RawHttp.Response b = json("/" + A + "/orders", "SendMessage", "{\"QueueUrl\":\"\",\"MessageBody\":\"x\"}",
                ROOT_B, ROOT_B_SECRET, "sqs");
        assertThat(b.status()).as(b.body()).isEqualTo(403);
        RawHttp.Response bq = queryPost("/" + A + "/orders", "Action=SendMessage&QueueUrl=&MessageBody=x&Version=2012-11-05",
                ROOT_B, ROOT_B_SECRET);
        assertThat(bq.status()).as(bq.body()).isEqualTo(403);
        RawHttp.Response allowed = json("/orders", "SendMessage", "{\"QueueUrl\":\"\",\"MessageBody\":\"x\"}", ALICE_1, ALICE_SECRET, "sqs");
        assertThat(allowed.status()).as(allowed.body()).isEqualTo(200);
        // the queue is still there and still holds its messages
        assertThat(sqs(ROOT_A, ROOT_A_SECRET).getQueueAttributes(r -> r.queueUrl(endpoint + "/" + A + "/orders")
                .attributeNamesWithStrings("ApproximateNumberOfMessages")).attributesAsStrings().get("ApproximateNumberOfMessages"))
                .isEqualTo("2");
    }

    @Test
    void aTaskHandleWithAKeyGivenTwiceIsRefused() {
        String handle = Base64.getEncoder().encodeToString(("{\"taskId\":\"t\",\"sourceArn\":\"arn:aws:sqs:us-east-1:" + A
                + ":orders\",\"sourceArn\":\"arn:aws:sqs:us-east-1:" + B + ":billing\"}").getBytes(StandardCharsets.UTF_8));
        RawHttp.Response r = json("/", "CancelMessageMoveTask", "{\"TaskHandle\":\"" + handle + "\"}", ROOT_B, ROOT_B_SECRET, "sqs");
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.body()).contains("Value for parameter TaskHandle is invalid.");
    }

    @Test
    void aSignatureScopedToAnotherServiceDoesNotActOnSqs() {
        for (String scope : new String[] {"lambda", "monitoring", "s3"}) {
            RawHttp.Response r = json("/", "ListQueues", "{}", ROOT_A, ROOT_A_SECRET, scope);
            assertThat(r.status()).as(scope + ": " + r.body()).isEqualTo(403);
            assertThat(r.body()).contains("Credential should be scoped to correct service: 'sqs'.");
        }
        assertThat(json("/", "ListQueues", "{}", ROOT_A, ROOT_A_SECRET, "sqs").status()).isEqualTo(200);
    }

    @Test
    void lambdaTagCallsAreAuthorized() {
        String ownArn = "arn:aws:lambda:us-east-1:" + A + ":event-source-mapping:00000000-0000-0000-0000-000000000000";
        String otherArn = "arn:aws:lambda:us-east-1:" + B + ":event-source-mapping:00000000-0000-0000-0000-000000000000";
        for (String method : new String[] {"GET", "POST", "DELETE"}) {
            String body = method.equals("POST") ? "{\"Tags\":{\"k\":\"v\"}}" : null;
            String query = method.equals("DELETE") ? "?tagKeys=k" : "";
            // a user without lambda rights, on its own account's ARN
            RawHttp.Response alice = http().send(SignedHttp.sign(http().request(method, "/2017-03-31/tags/" + ownArn + query,
                    Map.of("Content-Type", "application/json"), body), ALICE_1, ALICE_SECRET, "lambda", clock.instant()));
            assertThat(alice.status()).as(method + " alice: " + alice.body()).isEqualTo(403);
            assertThat(alice.header("x-amzn-ErrorType")).isEqualTo("AccessDeniedException");
            // an account root, on another account's ARN
            RawHttp.Response root = http().send(SignedHttp.sign(http().request(method, "/2017-03-31/tags/" + otherArn + query,
                    Map.of("Content-Type", "application/json"), body), ROOT_A, ROOT_A_SECRET, "lambda", clock.instant()));
            assertThat(root.status()).as(method + " other account: " + root.body()).isEqualTo(403);
            // anonymous, with an unverified 12-digit credential in the query
            RawHttp.Response anonymous = http().send(http().request(method, "/2017-03-31/tags/" + otherArn
                    + (query.isEmpty() ? "?" : query + "&") + "X-Amz-Credential=" + B + "%2F20260101%2Fus-east-1%2Flambda%2Faws4_request",
                    Map.of("Content-Type", "application/json"), body));
            assertThat(anonymous.status()).as(method + " anonymous: " + anonymous.body()).isIn(400, 403);
        }
        // an operation the Lambda table does not have is refused, not run
        RawHttp.Response unknown = http().send(SignedHttp.sign(http().request("PATCH", "/2015-03-31/event-source-mappings/",
                Map.of(), null), ROOT_A, ROOT_A_SECRET, "lambda", clock.instant()));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(403);
    }
}
