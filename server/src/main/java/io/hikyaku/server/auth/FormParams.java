package io.hikyaku.server.auth;

import io.hikyaku.protocol.HttpRequestData;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The parameters of a Query-protocol request: the query string, then a form body (later wins). */
final class FormParams {

    private FormParams() {}

    /** @throws IllegalArgumentException for a malformed escape */
    static Map<String, String> of(HttpRequestData raw) {
        Map<String, String> params = new LinkedHashMap<>();
        addAll(raw.rawQuery(), params);
        String contentType = raw.header("content-type");
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            addAll(new String(raw.body(), StandardCharsets.UTF_8), params);
        }
        return params;
    }

    private static void addAll(String form, Map<String, String> into) {
        if (form == null || form.isEmpty()) {
            return;
        }
        for (String pair : form.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            into.put(name, value);
        }
    }

    private static final byte[] STS_VERSION = "Version=2011-06-15".getBytes(StandardCharsets.US_ASCII);

    /** A cheap look for {@code Version=2011-06-15} before any parsing (most requests are SQS): no copy of the body. */
    static boolean mentionsStsVersion(HttpRequestData raw) {
        if (raw.rawQuery().contains("Version=2011-06-15")) {
            return true;
        }
        byte[] body = raw.body();
        if (body.length == 0 || body.length > 64 * 1024 || raw.header("x-amz-target") != null) {
            return false;
        }
        outer:
        for (int i = 0; i + STS_VERSION.length <= body.length; i++) {
            for (int j = 0; j < STS_VERSION.length; j++) {
                if (body[i + j] != STS_VERSION[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
