package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Copies a Netty request into the library-free {@link HttpRequestData}. */
final class RequestConverter {

    private RequestConverter() {}

    /** @throws IllegalArgumentException for a request target that cannot be decoded */
    static HttpRequestData convert(FullHttpRequest request) {
        return convert(request, null, false);
    }

    /**
     * @param sourceIp the peer's address, or null
     * @param secure   the connection is TLS
     * @throws IllegalArgumentException for a request target that cannot be decoded
     */
    static HttpRequestData convert(FullHttpRequest request, String sourceIp, boolean secure) {
        HttpRequestData head = head(request);
        return new HttpRequestData(head.method(), head.path(), head.rawQuery(), head.headers(),
                ByteBufUtil.getBytes(request.content()), head.rawPath(), head.headerLines(), sourceIp, secure);
    }

    /**
     * The request line and headers without a body (for a request refused before its body is read).
     *
     * @throws IllegalArgumentException for a request target that cannot be decoded
     */
    static HttpRequestData head(HttpRequest request) {
        String target = request.uri();
        String rawPath;
        String rawQuery;
        if (target.startsWith("http://") || target.startsWith("https://")) {
            URI uri = URI.create(target); // absolute-form, as sent through proxies
            rawPath = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            rawQuery = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        } else {
            int q = target.indexOf('?');
            rawPath = q < 0 ? target : target.substring(0, q);
            rawQuery = q < 0 ? "" : target.substring(q + 1);
        }
        if (!rawPath.startsWith("/")) {
            throw new IllegalArgumentException("request target must start with '/': " + target);
        }
        // decodeComponent leaves '+' alone in paths only when told it is not a query part; paths keep '+'.
        String path = QueryStringDecoder.decodeComponent(rawPath.replace("+", "%2B"));
        Map<String, String> headers = new HashMap<>();
        List<Map.Entry<String, String>> lines = new ArrayList<>(request.headers().size());
        for (Map.Entry<String, String> h : request.headers()) { // Netty iterates in arrival order
            String name = h.getKey().toLowerCase(Locale.ROOT);
            headers.put(name, h.getValue());
            lines.add(Map.entry(name, h.getValue()));
        }
        return new HttpRequestData(request.method().name(), path, rawQuery, headers, new byte[0], rawPath, lines, null, false);
    }
}
