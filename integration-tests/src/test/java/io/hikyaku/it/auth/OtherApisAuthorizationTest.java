package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.RawHttp;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * The two other APIs on the SQS port, signed with real SigV4 (the SDK's signer): the CloudWatch API
 * (Query) authorizes {@code cloudwatch:ListMetrics} and answers only for the caller's account's queues;
 * the Lambda event-source-mapping API authorizes {@code lambda:ListEventSourceMappings}.
 */
class OtherApisAuthorizationTest extends AuthTestBase {


    @Test
    void cloudWatchIsAuthorizedAndAnswersForTheCallersAccountOnly() {
        sqs(ROOT_A, ROOT_A_SECRET).sendMessage(b -> b.queueUrl(endpoint + "/" + A + "/orders").messageBody("a"));
        sqs(ROOT_B, ROOT_B_SECRET).sendMessage(b -> b.queueUrl(endpoint + "/" + B + "/billing").messageBody("b"));
        server.cloudWatch().sampleNow();
        clock.advance(Duration.ofSeconds(61));
        server.cloudWatch().sampleNow();

        RawHttp.Response alice = send(sign(listMetrics(), ALICE_1, ALICE_SECRET, "monitoring"));
        assertThat(alice.status()).as(alice.body()).isEqualTo(403);
        assertThat(alice.body()).contains("<Code>AccessDenied</Code>").contains("<Message>User: arn:aws:iam::" + A
                + ":user/alice is not authorized to perform: cloudwatch:ListMetrics because no identity-based policy allows"
                + " the cloudwatch:ListMetrics action</Message>");

        RawHttp.Response b = send(sign(listMetrics(), ROOT_B, ROOT_B_SECRET, "monitoring"));
        assertThat(b.status()).as(b.body()).isEqualTo(200);
        assertThat(b.body()).contains("<Value>billing</Value>").doesNotContain("<Value>orders</Value>");
        RawHttp.Response a = send(sign(listMetrics(), ROOT_A, ROOT_A_SECRET, "monitoring"));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        assertThat(a.body()).contains("<Value>orders</Value>").doesNotContain("<Value>billing</Value>");
    }

    @Test
    void theMappingApiIsAuthorized() {
        RawHttp.Response alice = send(sign(listMappings(), ALICE_1, ALICE_SECRET, "lambda"));
        assertThat(alice.status()).as(alice.body()).isEqualTo(403);
        assertThat(alice.header("x-amzn-ErrorType")).isEqualTo("AccessDeniedException");
        assertThat(alice.body()).contains("\"message\":\"User: arn:aws:iam::" + A + ":user/alice is not authorized to perform:"
                + " lambda:ListEventSourceMappings because no identity-based policy allows the lambda:ListEventSourceMappings action\"");
        RawHttp.Response root = send(sign(listMappings(), ROOT_A, ROOT_A_SECRET, "lambda"));
        assertThat(root.status()).as(root.body()).isEqualTo(200);
        assertThat(root.body()).contains("\"EventSourceMappings\"");
    }

    @Test
    void aMappingOnAnotherAccountsQueueNeedsThatQueuesPermissions() {
        byte[] body = ("{\"EventSourceArn\":\"arn:aws:sqs:us-east-1:" + A + ":orders\",\"FunctionName\":\"f\"}")
                .getBytes(StandardCharsets.UTF_8);
        SdkHttpFullRequest create = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST)
                .uri(URI.create(endpoint + "/2015-03-31/event-source-mappings/")).putHeader("Content-Type", "application/json")
                .contentStreamProvider(() -> new ByteArrayInputStream(body)).build();
        RawHttp.Response b = send(sign(create, ROOT_B, ROOT_B_SECRET, "lambda"));
        assertThat(b.status()).as(b.body()).isEqualTo(400);
        assertThat(b.header("x-amzn-ErrorType")).isEqualTo("InvalidParameterValueException");
        assertThat(b.body()).contains("\"message\":\"The provided execution role does not have permissions to call ReceiveMessage on SQS\"");
    }

    private SdkHttpFullRequest listMetrics() {
        byte[] body = "Action=ListMetrics&Version=2010-08-01&Namespace=AWS%2FSQS".getBytes(StandardCharsets.UTF_8);
        return SdkHttpFullRequest.builder().method(SdkHttpMethod.POST).uri(URI.create(endpoint + "/"))
                .putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .contentStreamProvider(() -> new ByteArrayInputStream(body)).build();
    }

    private SdkHttpFullRequest listMappings() {
        return SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(URI.create(endpoint + "/2015-03-31/event-source-mappings/")).build();
    }

    private SdkHttpFullRequest sign(SdkHttpFullRequest request, String keyId, String secret, String service) {
        return SignedHttp.sign(request, keyId, secret, service, clock.instant());
    }

    private RawHttp.Response send(SdkHttpFullRequest signed) {
        return new SignedHttp(endpoint).send(signed);
    }
}
