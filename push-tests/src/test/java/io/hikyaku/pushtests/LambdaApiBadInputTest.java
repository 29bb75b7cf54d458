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
        // each account has its own "fn": a mapping invokes only its own account's functions
        return List.of(new FunctionConfig("fn", URI.create("http://127.0.0.1:9/invoke"), 3, Map.of(), null),
                new FunctionConfig("fn", URI.create("http://127.0.0.1:9/invoke"), 3, Map.of(), null, "111111111111"));
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
    void tagsOfAMapping() throws Exception {
        String q = uniqueName("tags");
        createQueue(q, Map.of());
        LambdaResponse created = lambda("POST", MAPPINGS, "{\"FunctionName\":\"fn\",\"EventSourceArn\":\"" + arn(q)
                + "\",\"Enabled\":false,\"Tags\":{\"team\":\"orders\"}}");
        assertThat(created.status()).isEqualTo(202);
        String uuid = created.body().path("UUID").asText();
        String path = "/2017-03-31/tags/" + created.body().path("EventSourceMappingArn").asText().replace(":", "%3A");
        assertThat(lambda("GET", path, null).body()).isEqualTo(JSON.readTree("{\"Tags\":{\"team\":\"orders\"}}"));
        assertThat(lambda("POST", path, "{\"Tags\":{\"env\":\"dev\",\"team\":\"billing\"}}").status()).isEqualTo(204);
        assertThat(lambda("DELETE", path + "?tagKeys=team&tagKeys=absent", null).status()).isEqualTo(204);
        assertThat(lambda("GET", path, null).body()).isEqualTo(JSON.readTree("{\"Tags\":{\"env\":\"dev\"}}"));
        refused("POST", path, "{\"Tags\":{\"aws:x\":\"y\"}}", 400, "InvalidParameterValueException");
        refused("POST", path, "{\"Tags\":{\"k\":5}}", 400, "InvalidRequestContentException");
        refused("POST", path, "{}", 400, "ValidationException");
        refused("DELETE", path, null, 400, "ValidationException");
        // another account's mapping, an unknown one, and a function's ARN are not found
        assertThat(lambdaAs("111111111111", "GET", path, null).status()).isEqualTo(404);
        refused("GET", "/2017-03-31/tags/arn%3Aaws%3Alambda%3Aus-east-1%3A000000000000%3Aevent-source-mapping%3Anope", null,
                404, "ResourceNotFoundException");
        refused("GET", "/2017-03-31/tags/arn%3Aaws%3Alambda%3Aus-east-1%3A000000000000%3Afunction%3Afn", null,
                404, "ResourceNotFoundException");
        deleteMapping(uuid);
        refused("GET", path, null, 404, "ResourceNotFoundException");
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
