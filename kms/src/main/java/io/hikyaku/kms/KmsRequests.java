package io.hikyaku.kms;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.util.Map;
import java.util.Set;

/**
 * Which requests are KMS's and what IAM decides for them. A request is KMS's when its SigV4 credential scope names
 * service {@code kms}, or, unsigned, when its {@code X-Amz-Target} starts with {@code TrentService.}.
 */
public final class KmsRequests {

    public static final String TARGET_PREFIX = "TrentService.";
    /** Operations that act on no particular key: authorized on {@code *}. */
    static final Set<String> ON_NO_KEY = Set.of("CreateKey", "ListKeys", "ListAliases", "GenerateRandom", "ListRetirableGrants");

    private KmsRequests() {
    }

    public static boolean accepts(HttpRequestData raw) {
        String authorization = raw.header("authorization");
        if (authorization != null) {
            return authorization.contains("/kms/aws4_request");
        }
        String query = raw.rawQuery() == null ? "" : raw.rawQuery();
        if (query.contains("X-Amz-Credential=")) {
            return query.contains("%2Fkms%2Faws4_request") || query.contains("/kms/aws4_request");
        }
        String target = raw.header("x-amz-target");
        return target != null && target.startsWith(TARGET_PREFIX);
    }

    /** KMS's JSON error: {@code __type} is the shape's name, the message AWS's text; HTTP 400 unless said. */
    public static HttpResponseData error(KmsException e) {
        ObjectNode body = KmsApi.JSON.createObjectNode();
        body.put("__type", e.code());
        if (e.getMessage() != null) {
            body.put("message", e.getMessage());
        }
        try {
            return new HttpResponseData(e.status(), Map.of("Content-Type", KmsApi.CONTENT_TYPE, "x-amzn-ErrorType", e.code()),
                    KmsApi.JSON.writeValueAsBytes(body));
        } catch (com.fasterxml.jackson.core.JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** The answer to a denied call: {@code AccessDeniedException} with IAM's sentence. */
    public static HttpResponseData accessDenied(String denial) {
        return error(new KmsException("AccessDeniedException", denial));
    }
}
