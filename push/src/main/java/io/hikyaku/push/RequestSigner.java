package io.hikyaku.push;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a call so the endpoint can check it comes from Hikyaku and was not replayed:
 * {@code X-Hikyaku-Timestamp: <unix seconds>} and
 * {@code X-Hikyaku-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>}.
 * The endpoint recomputes the HMAC over the raw body bytes it received, compares in constant time,
 * and refuses timestamps too far from its own clock (docs/push-delivery.md).
 */
public final class RequestSigner {

    public static final String TIMESTAMP_HEADER = "X-Hikyaku-Timestamp";
    public static final String SIGNATURE_HEADER = "X-Hikyaku-Signature";
    /** The mapping's UUID, so one endpoint can serve several mappings. */
    public static final String MAPPING_HEADER = "X-Hikyaku-Event-Source-Mapping";
    private static final Set<String> RESERVED = Set.of("x-hikyaku-timestamp", "x-hikyaku-signature",
            "x-hikyaku-event-source-mapping", "content-type", "content-length", "host", "connection",
            "expect", "upgrade");

    private RequestSigner() {}

    /** The signature header's value for {@code body} sent at {@code epochSeconds}. */
    public static String signature(String secret, long epochSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((epochSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return "v1=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** Headers Hikyaku sets itself (or the HTTP client owns), which a function's config may not override. */
    static boolean reserved(String header) {
        return RESERVED.contains(header.toLowerCase(Locale.ROOT));
    }
}
