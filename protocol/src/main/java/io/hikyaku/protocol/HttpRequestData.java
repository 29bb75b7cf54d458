package io.hikyaku.protocol;

import java.util.Map;

/**
 * A complete HTTP request as the server received it, free of any HTTP library's types.
 *
 * @param method   upper-case method, e.g. {@code POST}
 * @param path     the decoded path without query string, e.g. {@code /000000000000/orders}
 * @param rawQuery the raw query string after '?', or "" when none
 * @param headers  header values keyed by lower-case name (the last value wins for repeated names)
 * @param body     the body bytes (empty when none)
 */
public record HttpRequestData(String method, String path, String rawQuery, Map<String, String> headers, byte[] body) {

    /** The header's value, or null. {@code name} must be lower case. */
    public String header(String name) {
        return headers.get(name);
    }
}
