package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The SQS {@link ProtocolCodec}: AWS JSON 1.0 when {@code X-Amz-Target} is present (on any path)
 * or the content type is {@code application/x-amz-json-*}, otherwise Query/XML. Thread-safe and
 * stateless.
 */
public final class SqsProtocolCodec implements ProtocolCodec {

    public SqsProtocolCodec() {}

    @Override
    public ApiRequest decode(HttpRequestData request) {
        boolean json = JsonProtocol.isJson(request);
        try {
            return json ? JsonProtocol.decode(request) : QueryProtocol.decode(request);
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) { // a request we cannot read is the sender's fault, never a 500
            throw new ApiException(json ? "SerializationException" : "MalformedQueryString",
                    "The request could not be read.");
        }
    }

    @Override
    public HttpResponseData encodeResult(ApiRequest request, ObjectNode result, String requestId) {
        return request.protocol() == WireProtocol.JSON
                ? JsonProtocol.result(result, requestId)
                : QueryProtocol.result(request, result, requestId);
    }

    @Override
    public HttpResponseData encodeError(HttpRequestData raw, ApiRequest decoded, ApiException error, String requestId) {
        WireProtocol protocol = decoded != null ? decoded.protocol()
                : raw != null && JsonProtocol.isJson(raw) ? WireProtocol.JSON : WireProtocol.QUERY;
        if (protocol == WireProtocol.JSON) {
            return JsonProtocol.error(error, requestId);
        }
        boolean acceptJson = decoded != null ? decoded.acceptJson() : raw != null && QueryProtocol.acceptsJson(raw);
        return QueryProtocol.error(error, acceptJson, requestId);
    }
}
