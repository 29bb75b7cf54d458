package io.hikyaku.identity.sigv4;

import java.nio.charset.StandardCharsets;

/**
 * Recognises Signature Version 2 (the {@code AWSAccessKeyId}, {@code SignatureVersion},
 * {@code Signature} parameters, in the query or a form body), which is refused: modern SDKs never
 * send it to SQS, and AWS refuses it for encrypted queues with {@code InvalidSecurity}.
 */
final class SigV2 {

    private SigV2() {}

    static boolean used(SignedRequest request, QueryParams query) {
        if (query.has("AWSAccessKeyId") && query.has("Signature")) {
            return true;
        }
        String contentType = request.header("content-type");
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            return false;
        }
        String body = new String(request.body(), StandardCharsets.ISO_8859_1);
        return hasParam(body, "AWSAccessKeyId") && hasParam(body, "Signature");
    }

    private static boolean hasParam(String form, String name) {
        return form.startsWith(name + "=") || form.contains("&" + name + "=");
    }
}
