package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.api.CallContext;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.server.http.CallContextFactory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallContextFactoryTest {

    final CallContextFactory contexts = new CallContextFactory("000000000000", "eu-west-1", null, "127.0.0.1", () -> 9999);

    static HttpRequestData request(String rawQuery, String... headerPairs) {
        Map<String, String> headers = new HashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1]);
        }
        return new HttpRequestData("POST", "/", rawQuery, headers, new byte[0]);
    }

    @Test
    void twelveDigitAccessKeyInAuthorizationSelectsTheAccount() {
        CallContext c = contexts.create(request("", "authorization",
                "AWS4-HMAC-SHA256 Credential=111122223333/20260102/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=ff"), "id-1");
        assertThat(c.accountId()).isEqualTo("111122223333");
        assertThat(c.region()).isEqualTo("eu-west-1"); // from config, not from the credential scope
        assertThat(c.requestId()).isEqualTo("id-1");
    }

    @Test
    void otherAccessKeysUseTheDefaultAccount() {
        assertThat(contexts.create(request("", "authorization",
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260102/us-east-1/sqs/aws4_request"), "x").accountId())
                .isEqualTo("000000000000");
        assertThat(contexts.create(request("", "authorization",
                "AWS4-HMAC-SHA256 Credential=1234567890123/20260102/us-east-1/sqs/aws4_request"), "x").accountId())
                .isEqualTo("000000000000");
        assertThat(contexts.create(request(""), "x").accountId()).isEqualTo("000000000000");
        assertThat(contexts.create(request("", "authorization", "garbage"), "x").accountId()).isEqualTo("000000000000");
    }

    @Test
    void presignedQueryCredentialSelectsTheAccount() {
        CallContext c = contexts.create(request(
                "Action=ListQueues&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=444455556666%2F20260102%2Fus-east-1%2Fsqs%2Faws4_request"), "x");
        assertThat(c.accountId()).isEqualTo("444455556666");
        assertThat(contexts.create(request("X-Amz-Credential=%zz"), "x").accountId()).isEqualTo("000000000000");
    }

    @Test
    void baseUrlComesFromTheHostHeaderOrFallsBackToTheBoundAddress() {
        assertThat(contexts.create(request("", "host", "localhost:4566"), "x").baseUrl()).isEqualTo("http://localhost:4566");
        assertThat(contexts.create(request("", "host", "[::1]:9324"), "x").baseUrl()).isEqualTo("http://[::1]:9324");
        assertThat(contexts.create(request(""), "x").baseUrl()).isEqualTo("http://127.0.0.1:9999");
        assertThat(contexts.create(request("", "host", "evil.com/path?"), "x").baseUrl()).isEqualTo("http://127.0.0.1:9999");
    }

    @Test
    void advertisedUrlWinsOverTheHostHeader() {
        CallContextFactory advertised = new CallContextFactory("000000000000", "us-east-1", "https://sqs.example.com", "0.0.0.0", () -> 1);
        assertThat(advertised.create(request("", "host", "localhost:4566"), "x").baseUrl()).isEqualTo("https://sqs.example.com");
    }

    @Test
    void traceHeaderIsPassedOn() {
        assertThat(contexts.create(request("", "x-amzn-trace-id", "Root=1-5759e988-bd862e3fe1be46a994272793"), "x").traceHeader())
                .isEqualTo("Root=1-5759e988-bd862e3fe1be46a994272793");
        assertThat(contexts.create(request(""), "x").traceHeader()).isNull();
    }

    @Test
    void wildcardBindFallsBackToLoopback() {
        CallContextFactory any = new CallContextFactory("000000000000", "us-east-1", null, "0.0.0.0", () -> 9324);
        assertThat(any.create(request(""), "x").baseUrl()).isEqualTo("http://127.0.0.1:9324");
    }

    @Test
    void theFirstAuthorizationLineSelectsTheAccountAsTheVerifierReadsIt() {
        String a = "AWS4-HMAC-SHA256 Credential=111111111111/20260102/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=ff";
        String b = a.replace("111111111111", "222222222222");
        HttpRequestData twice = new HttpRequestData("POST", "/", "", Map.of("authorization", b), new byte[0], "/",
                java.util.List.of(Map.entry("authorization", a), Map.entry("authorization", b)), null, false);
        assertThat(contexts.create(twice, "x").accountId()).isEqualTo("111111111111");
    }
}
