package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Passed down the pipeline in place of a request that is refused before it is read in full (its
 * body is too large), so the refusal is answered in order with any pipelined requests before it.
 *
 * @param head the request line and headers (to answer in the request's protocol), or null when
 *             they cannot be read
 */
record RejectedRequest(HttpResponseStatus status, String reason, HttpVersion version, HttpRequestData head) {

    /** The refused request's line and headers, or null when its target cannot be decoded. */
    static HttpRequestData headOf(HttpMessage message) {
        if (!(message instanceof HttpRequest request)) {
            return null;
        }
        try {
            return RequestConverter.head(request);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
