package io.hikyaku.sns;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Which requests are SNS's and what IAM decides for them. A request is SNS's when its SigV4 credential scope
 * names service {@code sns} (header or presigned query), or, unsigned, when it carries {@code Version=2010-03-31};
 * never by the action name alone (AddPermission and TagResource exist in other services too).
 */
public final class SnsRequests {

    private SnsRequests() {
    }

    public static boolean accepts(HttpRequestData raw) {
        String authorization = raw.header("authorization");
        if (authorization != null) {
            return authorization.contains("/sns/aws4_request");
        }
        String query = raw.rawQuery() == null ? "" : raw.rawQuery();
        if (query.contains("X-Amz-Credential=")) {
            return query.contains("%2Fsns%2Faws4_request") || query.contains("/sns/aws4_request");
        }
        if (!query.contains(SnsApi.VERSION) && !contains(raw.body(), SnsApi.VERSION_BYTES)) {
            return false; // the cheap test first: most requests are SQS's
        }
        try {
            return SnsApi.VERSION.equals(SnsParams.of(raw).get("Version"));
        } catch (SnsException malformed) {
            return false;
        }
    }

    /** The IAM action ({@code sns:Publish}...) and the resource (the topic's ARN, or *) a request asks for. */
    public static String[] authorizationTarget(HttpRequestData raw) {
        SnsParams p;
        try {
            p = SnsParams.of(raw);
        } catch (SnsException malformed) {
            return new String[] {"sns:" + "Unknown", "*"};
        }
        String action = p.get("Action") == null ? "" : p.get("Action");
        String resource = first(p.get("TopicArn"), p.get("TargetArn"), p.get("ResourceArn"));
        String subscription = p.get("SubscriptionArn");
        if (resource == null && subscription != null) {
            int last = subscription.lastIndexOf(':');
            resource = last > 0 ? subscription.substring(0, last) : null; // a subscription is authorized on its topic
        }
        return new String[] {"sns:" + action, resource == null ? "*" : resource};
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static String first(String... values) {
        for (String v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** SNS's answer to a denied call (403 AuthorizationError). */
    public static HttpResponseData authorizationError(String denial) {
        SnsException e = new SnsException("AuthorizationError", 403, denial);
        return new HttpResponseData(403, Map.of("Content-Type", "text/xml"),
                SnsXml.error(e, java.util.UUID.randomUUID().toString()).getBytes(StandardCharsets.UTF_8));
    }
}
