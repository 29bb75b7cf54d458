package io.hikyaku.protocol;

import java.util.Map;

/** A complete HTTP response for the server to write: status, headers (beyond the defaults) and body. */
public record HttpResponseData(int status, Map<String, String> headers, byte[] body) {}
