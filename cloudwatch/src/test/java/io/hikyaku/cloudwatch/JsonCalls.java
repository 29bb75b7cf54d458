package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** AWS JSON 1.0 calls on an endpoint, without a server (unit tests). */
final class JsonCalls {

    static final ObjectMapper JSON = new ObjectMapper();
    private final CloudWatch cloudWatch;
    private final String account;
    int lastStatus;

    JsonCalls(CloudWatch cloudWatch, String account) {
        this.cloudWatch = cloudWatch;
        this.account = account;
    }

    JsonNode call(String operation, String body) {
        HttpRequestData req = new HttpRequestData("POST", "/", null,
                Map.of("x-amz-target", CloudWatchEndpoint.JSON_TARGET_PREFIX + operation, "content-type", "application/x-amz-json-1.0"),
                body.getBytes(StandardCharsets.UTF_8));
        HttpResponseData res = cloudWatch.handle(req, "req-1", account);
        lastStatus = res.status();
        try {
            return JSON.readTree(res.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
