package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpResponseData;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;

/** Builds the Netty responses the server writes; every one carries a request id. */
final class NettyResponses {

    private NettyResponses() {}

    static FullHttpResponse of(HttpResponseData data, String requestId, HttpVersion version, boolean keepAlive,
                               boolean headOnly, Clock clock) {
        byte[] body = data.body() == null ? new byte[0] : data.body();
        FullHttpResponse response = new DefaultFullHttpResponse(version, HttpResponseStatus.valueOf(data.status()),
                headOnly ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        if (data.headers() != null) {
            for (Map.Entry<String, String> h : data.headers().entrySet()) {
                response.headers().set(h.getKey(), h.getValue());
            }
        }
        response.headers().set(RequestIds.HEADER, requestId);
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        response.headers().set(HttpHeaderNames.DATE, DateHeader.of(clock.millis()));
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (version.equals(HttpVersion.HTTP_1_0)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return response;
    }

    /** A plain-text refusal for requests that never reach the codec (malformed, too large). */
    static HttpResponseData plain(HttpResponseStatus status, String text) {
        return new HttpResponseData(status.code(), Map.of("content-type", "text/plain; charset=utf-8"),
                (text + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
