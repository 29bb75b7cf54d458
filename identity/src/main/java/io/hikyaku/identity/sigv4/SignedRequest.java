package io.hikyaku.identity.sigv4;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What SigV4 verification needs from an HTTP request, exactly as received: the method, the raw
 * (still percent-encoded) path and query, every header line in arrival order and the body.
 *
 * @param method   upper-case method
 * @param rawPath  the path as sent on the request line, e.g. {@code /000000000000/orders}
 * @param rawQuery the raw query string after '?', or ""
 * @param headers  every header line in arrival order, names lower-case, values as received
 * @param body     the body bytes
 */
public record SignedRequest(String method, String rawPath, String rawQuery, List<Map.Entry<String, String>> headers, byte[] body) {

    /** Every value of header {@code name} (lower case) in arrival order. */
    public List<String> values(String name) {
        List<String> out = new ArrayList<>(1);
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equals(name)) {
                out.add(h.getValue());
            }
        }
        return out;
    }

    /** The first value of header {@code name} (lower case), or null. */
    public String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equals(name)) {
                return h.getValue();
            }
        }
        return null;
    }
}
