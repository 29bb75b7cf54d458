package io.hikyaku.it.auth;

import io.hikyaku.it.support.RawHttp;
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

/** Raw HTTP requests signed with real SigV4 (the SDK's signer), for shapes no SDK sends. */
final class SignedHttp {

    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect");
    private final HttpClient http = HttpClient.newHttpClient();
    private final String endpoint;

    SignedHttp(String endpoint) {
        this.endpoint = endpoint;
    }

    SdkHttpFullRequest request(String method, String pathAndQuery, Map<String, String> headers, String body) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        SdkHttpFullRequest.Builder b = SdkHttpFullRequest.builder().method(SdkHttpMethod.fromValue(method))
                .uri(URI.create(endpoint + pathAndQuery));
        headers.forEach(b::putHeader);
        if (bytes.length > 0) {
            b.contentStreamProvider(() -> new ByteArrayInputStream(bytes));
        }
        return b.build();
    }

    static SdkHttpFullRequest sign(SdkHttpFullRequest request, String keyId, String secret, String service, Instant now) {
        Aws4SignerParams params = Aws4SignerParams.builder().awsCredentials(AwsBasicCredentials.create(keyId, secret))
                .signingName(service).signingRegion(Region.US_EAST_1)
                .signingClockOverride(Clock.fixed(now, ZoneOffset.UTC)).build();
        return Aws4Signer.create().sign(request, params);
    }

    RawHttp.Response send(SdkHttpFullRequest request) {
        byte[] body = request.contentStreamProvider().map(p -> {
            try {
                return p.newStream().readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).orElse(new byte[0]);
        HttpRequest.Builder b = HttpRequest.newBuilder(request.getUri()).method(request.method().name(),
                body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
            if (!RESTRICTED.contains(h.getKey().toLowerCase())) {
                h.getValue().forEach(v -> b.header(h.getKey(), v));
            }
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new RawHttp.Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
