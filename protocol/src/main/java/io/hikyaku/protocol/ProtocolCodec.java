package io.hikyaku.protocol;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Turns HTTP requests into {@link ApiRequest}s and results or errors back into HTTP responses, for
 * both AWS JSON 1.0 and Query/XML. Knows nothing of queues or storage.
 */
public interface ProtocolCodec {

    /**
     * Decodes a request, detecting its protocol (JSON when {@code X-Amz-Target} is present,
     * otherwise Query from the form body or query string).
     *
     * @throws ApiException with the exact SQS error for an undecodable request (unknown or missing
     *                      action, malformed JSON, bad UTF-8, ...)
     */
    ApiRequest decode(HttpRequestData request);

    /** Encodes a successful result (JSON 1.0 response shape) in the request's protocol. */
    HttpResponseData encodeResult(ApiRequest request, ObjectNode result, String requestId);

    /**
     * Encodes an error. {@code decoded} is null when decoding itself failed; the protocol is then
     * guessed from {@code raw}.
     */
    HttpResponseData encodeError(HttpRequestData raw, ApiRequest decoded, ApiException error, String requestId);
}
