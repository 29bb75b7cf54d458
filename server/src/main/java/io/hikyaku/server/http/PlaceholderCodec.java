package io.hikyaku.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.ProtocolCodec;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Stands in for the real codec until it is built.
 * TODO(protocol): delete and use {@code new io.hikyaku.protocol.SqsProtocolCodec()} once it is on main.
 */
final class PlaceholderCodec implements ProtocolCodec {

    @Override
    public ApiRequest decode(HttpRequestData request) {
        throw new ApiException("InternalError", "The protocol codec is not built yet.");
    }

    @Override
    public HttpResponseData encodeResult(ApiRequest request, ObjectNode result, String requestId) {
        return json(200, result.toString());
    }

    @Override
    public HttpResponseData encodeError(HttpRequestData raw, ApiRequest decoded, ApiException error, String requestId) {
        String message = String.valueOf(error.getMessage()).replace("\\", "\\\\").replace("\"", "\\\"");
        return json(500, "{\"__type\":\"com.amazonaws.sqs#" + error.errorType() + "\",\"message\":\"" + message + "\"}");
    }

    private static HttpResponseData json(int status, String body) {
        return new HttpResponseData(status, Map.of("content-type", "application/x-amz-json-1.0"),
                body.getBytes(StandardCharsets.UTF_8));
    }
}
