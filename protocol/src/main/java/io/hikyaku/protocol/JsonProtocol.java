package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** AWS JSON 1.0 with awsQueryCompatible errors: {@code X-Amz-Target: AmazonSQS.<Action>}. */
final class JsonProtocol {

    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    private static final String TARGET_PREFIX = "AmazonSQS.";
    /**
     * Hikyaku's own JSON-only actions live under their own target prefix, so they can never collide
     * with a future SQS action (target {@code Hikyaku.PeekMessages}, the decoded action name too). JSON only.
     */
    private static final java.util.Set<String> HIKYAKU_ACTIONS = java.util.Set.of("Hikyaku.PeekMessages");

    private JsonProtocol() {}

    /** JSON when the target header is present, or the body is declared AWS JSON (then a missing target is an unknown operation). */
    static boolean isJson(HttpRequestData request) {
        if (request.header("x-amz-target") != null) {
            return true;
        }
        String contentType = request.header("content-type");
        return contentType != null && contentType.trim().toLowerCase(Locale.ROOT).startsWith("application/x-amz-json");
    }

    static ApiRequest decode(HttpRequestData request) {
        String target = request.header("x-amz-target") == null ? "" : request.header("x-amz-target").trim();
        String action = target.startsWith(TARGET_PREFIX) ? target.substring(TARGET_PREFIX.length()) : null;
        if (action == null && HIKYAKU_ACTIONS.contains(target)) {
            action = target;
        } else if (!QueryModel.isAction(action)) {
            throw new ApiException("UnknownOperationException", target.isEmpty()
                    ? "The request must contain the header X-Amz-Target."
                    : "The operation " + target + " is not valid for this endpoint.");
        }
        ObjectNode input = JsonCodec.parseObject(request.body() == null ? new byte[0] : request.body());
        return new ApiRequest(action, input, WireProtocol.JSON, false, request.path());
    }

    static HttpResponseData result(ObjectNode result, String requestId) {
        byte[] body = JsonCodec.write(result == null ? JsonCodec.MAPPER.createObjectNode() : result);
        return new HttpResponseData(200, headers(requestId), body);
    }

    static HttpResponseData error(ApiException error, String requestId) {
        ErrorCatalogue.Entry entry = ErrorCatalogue.lookup(error.errorType());
        ObjectNode body = JsonCodec.MAPPER.createObjectNode();
        body.put("__type", entry.jsonType());
        body.put("message", error.getMessage() == null ? "" : error.getMessage());
        Map<String, String> headers = headers(requestId);
        // Coral-level errors (unknown operation, unreadable body) carry no Query code on AWS; the
        // front door's authentication errors do (AccessDeniedException travels as AccessDenied).
        if (entry.jsonType().startsWith("com.amazonaws.sqs#") || !entry.jsonType().endsWith("#" + entry.queryCode())) {
            headers.put("x-amzn-query-error", entry.queryCode() + ";" + entry.fault());
        }
        return new HttpResponseData(entry.status(), headers, JsonCodec.write(body));
    }

    private static Map<String, String> headers(String requestId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", CONTENT_TYPE);
        if (requestId != null) {
            headers.put("x-amzn-RequestId", requestId);
        }
        return headers;
    }
}
