package io.hikyaku.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.ProtocolCodec;
import io.hikyaku.protocol.WireProtocol;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** JSON-1.0-only stand-in for the real codec: X-Amz-Target names the action, the body is the input. */
final class FakeCodec implements ProtocolCodec {

    static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public ApiRequest decode(HttpRequestData request) {
        String target = request.header("x-amz-target");
        if (target == null || !target.startsWith("AmazonSQS.")) {
            throw new ApiException("InvalidAction", "no action");
        }
        ObjectNode input;
        try {
            JsonNode node = request.body().length == 0 ? JSON.createObjectNode() : JSON.readTree(request.body());
            if (!(node instanceof ObjectNode o)) {
                throw new ApiException("SerializationException", "not an object");
            }
            input = o;
        } catch (IOException e) {
            throw new ApiException("SerializationException", "bad json");
        }
        return new ApiRequest(target.substring("AmazonSQS.".length()), input, WireProtocol.JSON, false, request.path());
    }

    @Override
    public HttpResponseData encodeResult(ApiRequest request, ObjectNode result, String requestId) {
        return json(200, result.toString());
    }

    @Override
    public HttpResponseData encodeError(HttpRequestData raw, ApiRequest decoded, ApiException error, String requestId) {
        ObjectNode body = JSON.createObjectNode().put("__type", error.errorType()).put("message", error.getMessage());
        int status = switch (error.errorType()) {
            case "InternalError" -> 500;
            case "RequestEntityTooLarge" -> 413;
            default -> 400;
        };
        return json(status, body.toString());
    }

    private static HttpResponseData json(int status, String body) {
        return new HttpResponseData(status, Map.of("content-type", "application/x-amz-json-1.0"),
                body.getBytes(StandardCharsets.UTF_8));
    }
}
