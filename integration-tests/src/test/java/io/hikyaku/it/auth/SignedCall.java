package io.hikyaku.it.auth;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.signer.Aws4Signer;
import software.amazon.awssdk.auth.signer.params.Aws4SignerParams;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;

/** One hand-made request signed with SigV4 by the SDK's signer, for any service scope and request shape. */
final class SignedCall {

    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A status, headers and the raw body. */
    record Response(int status, java.net.http.HttpHeaders headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    private SignedCall() {}

    /** POSTs {@code body} to {@code endpoint + path} with {@code headers}, signed for {@code service} at {@code now}. */
    static Response post(String endpoint, String path, Map<String, String> headers, byte[] body,
                         String keyId, String secret, String service, Instant now) {
        SdkHttpFullRequest.Builder b = SdkHttpFullRequest.builder().method(SdkHttpMethod.POST).uri(URI.create(endpoint + path))
                .contentStreamProvider(() -> new ByteArrayInputStream(body));
        headers.forEach(b::putHeader);
        Aws4SignerParams params = Aws4SignerParams.builder().awsCredentials(AwsBasicCredentials.create(keyId, secret))
                .signingName(service).signingRegion(Region.US_EAST_1)
                .signingClockOverride(Clock.fixed(now, ZoneOffset.UTC)).build();
        SdkHttpFullRequest signed = Aws4Signer.create().sign(b.build(), params);
        HttpRequest.Builder r = HttpRequest.newBuilder(signed.getUri()).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> h : signed.headers().entrySet()) {
            if (!RESTRICTED.contains(h.getKey().toLowerCase())) {
                h.getValue().forEach(v -> r.header(h.getKey(), v));
            }
        }
        try {
            HttpResponse<byte[]> out = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(out.statusCode(), out.headers(), out.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A Query form: POST / with the form body. */
    static Response form(String endpoint, String form, String keyId, String secret, String service, Instant now) {
        return post(endpoint, "/", Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
                form.getBytes(StandardCharsets.UTF_8), keyId, secret, service, now);
    }
}
