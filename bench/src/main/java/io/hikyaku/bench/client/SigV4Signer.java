package io.hikyaku.bench.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs the bench's AWS JSON 1.0 POSTs with SigV4 in the Authorization header, as an SDK would, so
 * that a server started with authentication on pays the whole verification cost (payload hash,
 * canonical request, HMAC chain) for every request. Signed headers: content-type, host, x-amz-date,
 * x-amz-target (those botocore signs for SQS). Per request: one SHA-256 of the body, one of the
 * canonical request and one HMAC; the signing key is derived once per UTC day, the date text once
 * per second. Digest and MAC instances are per thread.
 */
public final class SigV4Signer {
    static final String SIGNED_HEADERS = "content-type;host;x-amz-date;x-amz-target";
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final String accessKeyId;
    private final byte[] secret;
    private final String region;
    private final ThreadLocal<MessageDigest> sha256 = ThreadLocal.withInitial(() -> instance(() -> MessageDigest.getInstance("SHA-256")));
    private final ThreadLocal<Mac> hmac = ThreadLocal.withInitial(() -> instance(() -> Mac.getInstance("HmacSHA256")));
    private volatile Day day;
    private volatile Stamp stamp;

    private record Day(String yyyymmdd, byte[] signingKey, String scope) {}

    private record Stamp(long epochSecond, String amzDate) {}

    /** What to put on the wire for one request. */
    public record Signature(String amzDate, String authorization) {}

    public SigV4Signer(String accessKeyId, String secretAccessKey, String region) {
        this.accessKeyId = accessKeyId;
        this.secret = ("AWS4" + secretAccessKey).getBytes(StandardCharsets.UTF_8);
        this.region = region;
    }

    /**
     * From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and AWS_REGION, default us-east-1), as the SDKs read them.
     */
    public static SigV4Signer fromEnvironment() {
        String key = System.getenv("AWS_ACCESS_KEY_ID");
        String secret = System.getenv("AWS_SECRET_ACCESS_KEY");
        if (key == null || key.isBlank() || secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("--sigv4 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment");
        }
        String region = System.getenv().getOrDefault("AWS_REGION", "us-east-1");
        return new SigV4Signer(key, secret, region);
    }

    public Signature sign(String hostHeader, String target, String contentType, byte[] body) {
        return sign(hostHeader, target, contentType, body, Instant.now());
    }

    Signature sign(String hostHeader, String target, String contentType, byte[] body, Instant now) {
        String amzDate = amzDate(now);
        Day d = day(amzDate.substring(0, 8));
        MessageDigest md = sha256.get();
        String payloadHash = hex(md.digest(body));
        String canonical = "POST\n/\n\n"
                + "content-type:" + contentType + "\n"
                + "host:" + hostHeader + "\n"
                + "x-amz-date:" + amzDate + "\n"
                + "x-amz-target:" + target + "\n"
                + "\n" + SIGNED_HEADERS + "\n" + payloadHash;
        String stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + d.scope + "\n"
                + hex(md.digest(canonical.getBytes(StandardCharsets.UTF_8)));
        String signature = hex(hmac(d.signingKey, stringToSign));
        return new Signature(amzDate, "AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + d.scope
                + ", SignedHeaders=" + SIGNED_HEADERS + ", Signature=" + signature);
    }

    private String amzDate(Instant now) {
        Stamp s = stamp;
        if (s == null || s.epochSecond != now.getEpochSecond()) {
            s = new Stamp(now.getEpochSecond(), AMZ_DATE.format(now));
            stamp = s;
        }
        return s.amzDate;
    }

    private Day day(String yyyymmdd) {
        Day d = day;
        if (d == null || !d.yyyymmdd.equals(yyyymmdd)) {
            byte[] k = hmac(secret, yyyymmdd);
            k = hmac(k, region);
            k = hmac(k, "sqs");
            k = hmac(k, "aws4_request");
            d = new Day(yyyymmdd, k, yyyymmdd + "/" + region + "/sqs/aws4_request");
            day = d;
        }
        return d;
    }

    private byte[] hmac(byte[] key, String data) {
        Mac mac = hmac.get();
        try {
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }

    private interface Maker<T> {
        T make() throws GeneralSecurityException;
    }

    private static <T> T instance(Maker<T> maker) {
        try {
            return maker.make();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
