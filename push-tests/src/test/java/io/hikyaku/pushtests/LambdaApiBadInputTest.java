package io.hikyaku.pushtests;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.push.FunctionConfig;
import io.hikyaku.pushtests.support.PushTestBase;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad requests to the Lambda API get Lambda's 4xx errors (never a 5xx), and mappings are per account. */
class LambdaApiBadInputTest extends PushTestBase {

    private static final String MAPPINGS = "/2015-03-31/event-source-mappings/";

    @Override
    protected List<FunctionConfig> functions() {
        return List.of(new FunctionConfig("fn", URI.create("http://127.0.0.1:9/invoke"), 3, Map.of(), null));
    }

    private void refused(String method, String path, String body, int status, String type) throws Exception {
        LambdaResponse r = lambda(method, path, body);
        assertThat(r.status()).as(method + " " + path + " " + body + " -> " + r.body()).isEqualTo(status);
        assertThat(r.errorType()).isEqualTo(type);
        assertThat(r.body().path("Type").asText()).isEqualTo("User");
        assertThat(r.body().path("message").asText()).isNotEmpty();
    }

    @Test
    void malformedRequestsGetClientErrors() throws Exception {
        String q = uniqueName("bad");
        createQueue(q, Map.of());
        refused("POST", MAPPINGS, "{not json", 400, "InvalidRequestContentException");
        refused("POST", MAPPINGS, "[1,2]", 400, "InvalidRequestContentException");
        refused("POST", MAPPINGS, "{\"FunctionName\":5,\"EventSourceArn\":\"" + arn(q) + "\"}", 400, "InvalidRequestContentException");
        refused("POST", MAPPINGS, "{\"FunctionName\":\"fn\",\"BatchSize\":1.5,\"EventSourceArn\":\"" + arn(q) + "\"}", 400, "InvalidRequestContentException");
        refused("POST", MAPPINGS, "{\"FunctionName\":\"fn\"}", 400, "InvalidParameterValueException");
        refused("POST", MAPPINGS, "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"arn:aws:kinesis:us-east-1:000000000000:stream/s\"}",
                400, "InvalidParameterValueException");
        refused("POST", MAPPINGS, "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"arn:aws:sqs:eu-west-1:000000000000:" + q + "\"}",
                400, "InvalidParameterValueException");
        refused("POST", MAPPINGS, "{\"FunctionName\":\"arn:aws:lambda:us-east-1:111111111111:function:fn\",\"EventSourceArn\":\""
                + arn(q) + "\"}", 404, "ResourceNotFoundException");
        refused("POST", MAPPINGS, "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"" + arn(q) + "\",\"FilterCriteria\":{\"Filters\":"
                + "[{\"Pattern\":\"{}\"},{\"Pattern\":\"{}\"}]}}", 400, "InvalidParameterValueException");
        refused("GET", MAPPINGS + "?MaxItems=0", null, 400, "ValidationException");
        refused("GET", MAPPINGS + "?MaxItems=x", null, 400, "InvalidRequestContentException");
        refused("GET", MAPPINGS + "?Marker=nope", null, 400, "InvalidParameterValueException");
        refused("PATCH", MAPPINGS + "abc", "{}", 404, "UnknownOperationException");
        refused("GET", "/2015-03-31/functions/fn", null, 404, "UnknownOperationException");
        refused("PUT", MAPPINGS + "abc", "{\"BatchSize\":2}", 404, "ResourceNotFoundException");
        refused("DELETE", MAPPINGS + "abc", null, 404, "ResourceNotFoundException");
    }

    @Test
    void aMappingBelongsToTheAccountThatCreatedIt() throws Exception {
        String q = uniqueName("acct");
        createQueue(q, Map.of());
        LambdaResponse created = lambdaAs("111111111111", "POST", MAPPINGS,
                "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"" + arn(q) + "\",\"Enabled\":false}");
        assertThat(created.status()).isEqualTo(202);
        assertThat(created.body().path("FunctionArn").asText()).isEqualTo("arn:aws:lambda:us-east-1:111111111111:function:fn");
        String uuid = created.body().path("UUID").asText();
        assertThat(lambda("GET", MAPPINGS + uuid, null).status()).isEqualTo(404);
        assertThat(lambda("GET", MAPPINGS, null).body().path("EventSourceMappings").size()).isZero();
        assertThat(lambdaAs("111111111111", "GET", MAPPINGS + uuid, null).status()).isEqualTo(200);
        assertThat(lambdaAs("111111111111", "DELETE", MAPPINGS + uuid, null).status()).isEqualTo(202);
    }
}
