package io.hikyaku.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A complete HTTP request as the server received it, free of any HTTP library's types.
 *
 * @param method      upper-case method, e.g. {@code POST}
 * @param path        the decoded path without query string, e.g. {@code /000000000000/orders}
 * @param rawQuery    the raw query string after '?', or "" when none
 * @param headers     header values keyed by lower-case name (the last value wins for repeated names)
 * @param body        the body bytes (empty when none)
 * @param rawPath     the path exactly as on the request line (still percent-encoded), which SigV4 signs
 * @param headerLines every header line in arrival order (lower-case name, value as received), which
 *                    SigV4 signs: repeated headers keep all their values, in order
 * @param sourceIp    the peer's IP address as text (aws:SourceIp), or null when unknown
 * @param secure      the request came over TLS (aws:SecureTransport)
 */
public record HttpRequestData(String method, String path, String rawQuery, Map<String, String> headers, byte[] body,
                              String rawPath, List<Map.Entry<String, String>> headerLines, String sourceIp, boolean secure) {

    /** A request whose raw path is its path and whose header lines are its header map (tests, internal calls). */
    public HttpRequestData(String method, String path, String rawQuery, Map<String, String> headers, byte[] body) {
        this(method, path, rawQuery, headers, body, path, new ArrayList<>(headers.entrySet()), null, false);
    }

    /** The header's value, or null. {@code name} must be lower case. */
    public String header(String name) {
        return headers.get(name);
    }
}
