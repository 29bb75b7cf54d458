package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Query/XML: {@code Action=...&Version=2012-11-05} in a form body and/or the query string. */
final class QueryProtocol {

    static final String XML_CONTENT_TYPE = "text/xml";
    static final String JSON_CONTENT_TYPE = "application/json";
    private static final byte[] UNKNOWN_OPERATION = "<UnknownOperationException/>".getBytes(StandardCharsets.UTF_8);

    private QueryProtocol() {}

    static ApiRequest decode(HttpRequestData request) {
        Map<String, String> params = new LinkedHashMap<>();
        if (request.rawQuery() != null && !request.rawQuery().isEmpty()) {
            FormDecoder.decodeInto(request.rawQuery().getBytes(StandardCharsets.UTF_8), params);
        }
        if (request.body() != null && request.body().length > 0 && isForm(request.header("content-type"))) {
            FormDecoder.decodeInto(request.body(), params); // the body wins over the query string
        }
        String action = params.get("Action");
        boolean queuePath = isQueuePath(request.path());
        if (action == null || action.isEmpty()) {
            if (queuePath) {
                throw new ApiException("UnknownOperationException", "");
            }
            throw new ApiException("MissingAction", "The request must contain the parameter Action.");
        }
        if (!QueryModel.isAction(action) || (queuePath && QueryModel.QUEUELESS_ACTIONS.contains(action))) {
            throw new ApiException("InvalidAction", "The action " + action + " is not valid for this endpoint.");
        }
        ObjectNode input = QueryInputConverter.convert(QueryModel.INPUTS.get(action), params);
        return new ApiRequest(action, input, WireProtocol.QUERY, acceptsJson(request), request.path());
    }

    static HttpResponseData result(ApiRequest request, ObjectNode result, String requestId) {
        String action = request.action();
        if (request.acceptJson()) {
            ObjectNode body = JsonCodec.MAPPER.createObjectNode();
            ObjectNode response = body.putObject(action + "Response");
            if (QueryModel.OUTPUTS.containsKey(action)) {
                response.set(action + "Result", result == null ? JsonCodec.MAPPER.createObjectNode()
                        : action.equals("ReceiveMessage") ? lowerCaseMessages(result) : result);
            }
            response.putObject("ResponseMetadata").put("RequestId", requestId);
            return new HttpResponseData(200, headers(JSON_CONTENT_TYPE, requestId), JsonCodec.write(body));
        }
        String xml = QueryXmlEncoder.result(action, result, requestId);
        return new HttpResponseData(200, headers(XML_CONTENT_TYPE, requestId), xml.getBytes(StandardCharsets.UTF_8));
    }

    /** Query's JSON answer lists received messages under {@code messages}, lower-case m (sqs-behaviours 84). */
    private static ObjectNode lowerCaseMessages(ObjectNode result) {
        if (!result.has("Messages")) {
            return result;
        }
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        result.fields().forEachRemaining(e -> out.set(e.getKey().equals("Messages") ? "messages" : e.getKey(), e.getValue()));
        return out;
    }

    static HttpResponseData error(ApiException error, boolean acceptJson, String requestId) {
        ErrorCatalogue.Entry entry = ErrorCatalogue.lookup(error.errorType());
        if (entry.errorType().equals("UnknownOperationException")) {
            // AWS answers a queue URL without an Action like an unknown REST call (behaviour 73).
            return new HttpResponseData(404, headers(XML_CONTENT_TYPE, requestId), UNKNOWN_OPERATION.clone());
        }
        String message = ErrorCatalogue.queryMessage(entry.errorType(), error.getMessage());
        if (acceptJson) {
            // Exactly the body sqs-behaviours.md 71 records: {"Error":{"Code":..,"Message":..}} (the request
            // id still travels in the x-amzn-RequestId header).
            ObjectNode body = JsonCodec.MAPPER.createObjectNode();
            ObjectNode err = body.putObject("Error");
            err.put("Code", entry.queryCode());
            err.put("Message", message);
            return new HttpResponseData(entry.status(), headers(JSON_CONTENT_TYPE, requestId), JsonCodec.write(body));
        }
        String xml = QueryXmlEncoder.error(entry.fault(), entry.queryCode(), message, requestId == null ? "" : requestId);
        return new HttpResponseData(entry.status(), headers(XML_CONTENT_TYPE, requestId), xml.getBytes(StandardCharsets.UTF_8));
    }

    static boolean acceptsJson(HttpRequestData request) {
        String accept = request.header("accept");
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/json");
    }

    /** Any path but the root names a queue ({@code /{account}/{name}}). */
    static boolean isQueuePath(String path) {
        return path != null && !path.isEmpty() && !path.equals("/");
    }

    /** A form body, or a body without a content type (old clients omit it). */
    private static boolean isForm(String contentType) {
        return contentType == null || contentType.isBlank()
                || contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }

    private static Map<String, String> headers(String contentType, String requestId) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", contentType);
        if (requestId != null) {
            headers.put("x-amzn-RequestId", requestId);
        }
        return headers;
    }
}
