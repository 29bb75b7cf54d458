package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.RawHttp;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.signer.Aws4Signer;
import software.amazon.awssdk.auth.signer.params.Aws4PresignerParams;
import software.amazon.awssdk.auth.signer.params.Aws4SignerParams;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;

/**
 * Every refusal, with AWS's exact status, code and text, over both SQS protocols. Requests are
 * signed by the AWS SDK for Java v2's own SigV4 signer (with a signing clock relative to the
 * server's injected clock), then sent as they are or altered on the way.
 */
class NegativeMatrixTest extends AuthTestBase {

    private static final String BAD_SIGNATURE = "The request signature we calculated does not match the signature you provided. "
            + "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect", "upgrade");

    enum Protocol { JSON, QUERY }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void wrongSecret(Protocol p) {
        expect(send(sign(listQueues(p), creds(ROOT_A, "wrong-secret"), Duration.ZERO), UnaryOperator.identity()),
                p, 403, "SignatureDoesNotMatch", BAD_SIGNATURE);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void unknownKey(Protocol p) {
        expect(send(sign(listQueues(p), creds("AKIANOBODY0000000000", "x"), Duration.ZERO), UnaryOperator.identity()),
                p, 403, "InvalidClientTokenId", "The security token included in the request is invalid.");
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void correctlySignedIsAccepted(Protocol p) {
        assertThat(send(sign(listQueues(p), creds(ROOT_A, ROOT_A_SECRET), Duration.ZERO), UnaryOperator.identity()).status()).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void sixteenMinutesBehind(Protocol p) {
        Instant signed = clock.instant().minus(Duration.ofMinutes(16));
        RawHttp.Response r = send(sign(listQueues(p), creds(ROOT_A, ROOT_A_SECRET), Duration.ofMinutes(-16)), UnaryOperator.identity());
        expect(r, p, 403, "SignatureDoesNotMatch", "Signature expired: " + basic(signed) + " is now earlier than "
                + basic(clock.instant().minus(Duration.ofMinutes(15))) + " (" + basic(clock.instant()) + " - 15 min.)");
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void sixteenMinutesAhead(Protocol p) {
        Instant signed = clock.instant().plus(Duration.ofMinutes(16));
        RawHttp.Response r = send(sign(listQueues(p), creds(ROOT_A, ROOT_A_SECRET), Duration.ofMinutes(16)), UnaryOperator.identity());
        expect(r, p, 403, "SignatureDoesNotMatch", "Signature not yet current: " + basic(signed) + " is still later than "
                + basic(clock.instant().plus(Duration.ofMinutes(15))) + " (" + basic(clock.instant()) + " + 15 min.)");
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void tamperedBody(Protocol p) {
        SdkHttpFullRequest signed = sign(listQueues(p), creds(ROOT_A, ROOT_A_SECRET), Duration.ZERO);
        byte[] other = (p == Protocol.JSON ? "{\"QueueNamePrefix\":\"x\"}" : "Action=ListQueues&Version=2012-11-05&QueueNamePrefix=x")
                .getBytes(StandardCharsets.UTF_8);
        expect(send(signed, other, UnaryOperator.identity()), p, 403, "SignatureDoesNotMatch", BAD_SIGNATURE);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void tamperedSignedHeader(Protocol p) {
        SdkHttpFullRequest signed = sign(listQueues(p), creds(ROOT_A, ROOT_A_SECRET), Duration.ZERO);
        String date = signed.firstMatchingHeader("X-Amz-Date").orElseThrow();
        String later = date.substring(0, 13) + (date.charAt(13) == '5' ? '4' : '5') + date.substring(14);
        expect(send(signed, h -> h.setHeader("X-Amz-Date", later)), p, 403, "SignatureDoesNotMatch", BAD_SIGNATURE);
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void hostNotSigned(Protocol p) {
        SdkHttpFullRequest signed = sign(listQueues(p), creds(ROOT_A, ROOT_A_SECRET), Duration.ZERO);
        String auth = signed.firstMatchingHeader("Authorization").orElseThrow().replace("host;", "");
        expect(send(signed, h -> h.setHeader("Authorization", auth)), p, 403, "SignatureDoesNotMatch",
                "'Host' must be a 'SignedHeader' in the AWS Authorization.");
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void unsignedIsAnonymousAndDenied(Protocol p) {
        SdkHttpFullRequest unsigned = listQueues(p);
        expect(send(unsigned, UnaryOperator.identity()), p, 403, "AccessDenied",
                "Access to the resource https://sqs.us-east-1.amazonaws.com/ is denied.");
    }

    @Test
    void presignedUrlWorksUntilItExpires() throws Exception {
        SdkHttpFullRequest request = SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(URI.create(endpoint + "/"))
                .putRawQueryParameter("Action", "ListQueues").putRawQueryParameter("Version", "2012-11-05").build();
        Aws4Signer signer = Aws4Signer.create();
        URI fresh = signer.presign(request, presign(clock.instant(), Duration.ofMinutes(5))).getUri();
        assertThat(get(fresh).statusCode()).isEqualTo(200);
        // signed 30 minutes ago, valid for 1 minute: past the expiry and its 15 minutes of grace
        Instant signedAt = clock.instant().minus(Duration.ofMinutes(30));
        URI expired = signer.presign(request, presign(signedAt, Duration.ofMinutes(1))).getUri();
        HttpResponse<String> r = get(expired);
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("<Code>SignatureDoesNotMatch</Code>")
                .contains("<Message>Signature expired: " + basic(signedAt.plus(Duration.ofMinutes(1))) + " is now earlier than "
                        + basic(clock.instant().minus(Duration.ofMinutes(15))) + " (" + basic(clock.instant()) + " - 15 min.)</Message>");
        // a tampered query parameter breaks the signature
        URI tampered = URI.create(fresh.toString().replace("Action=ListQueues", "Action=ListQueues&QueueNamePrefix=x"));
        assertThat(get(tampered).body()).contains("<Code>SignatureDoesNotMatch</Code>").contains(BAD_SIGNATURE);
    }

    @Test
    void sigV2IsRefused() {
        RawHttp.Response r = new RawHttp(endpoint).query("/", "Action=ListQueues&Version=2012-11-05&AWSAccessKeyId=" + ROOT_A
                + "&SignatureVersion=2&SignatureMethod=HmacSHA256&Timestamp=2026-01-01T00%3A00%3A00Z&Signature=abc%3D");
        assertThat(r.status()).isEqualTo(403);
        assertThat(r.body()).contains("<Code>InvalidSecurity</Code>")
                .contains("<Message>The request was not made over HTTPS or did not use SigV4 for signing.</Message>");
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void expiredSessionToken(Protocol p) {
        // the SDK corrects its clock from the Date of earlier answers (this class moves the server's clock): start clean
        software.amazon.awssdk.core.SdkGlobalTime.setGlobalTimeOffset(0);
        AssumeRoleResponse role = sts(ROOT_B, ROOT_B_SECRET).assumeRole(b -> b.roleArn(WORKER_ARN).roleSessionName("expiring").durationSeconds(900));
        var c = role.credentials();
        AwsSessionCredentials session = AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken());
        assertThat(send(sign(listQueues(p), session, Duration.ZERO), UnaryOperator.identity()).status()).isEqualTo(200);
        clock.advance(Duration.ofSeconds(901));
        try {
            expect(send(sign(listQueues(p), session, Duration.ZERO), UnaryOperator.identity()), p, 403, "ExpiredToken",
                    "The security token included in the request is expired");
            // STS answers in its own XML
            RawHttp.Response sts = send(sign(stsCall(), session, Duration.ZERO, "sts"), UnaryOperator.identity());
            assertThat(sts.status()).isEqualTo(403);
            assertThat(sts.body()).startsWith("<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">")
                    .contains("<Code>ExpiredToken</Code>");
        } finally {
            clock.advance(Duration.ofSeconds(-901));
        }
    }

    // ---------- helpers ----------

    private static SdkHttpFullRequest.Builder post(String endpoint) {
        return SdkHttpFullRequest.builder().method(SdkHttpMethod.POST).uri(URI.create(endpoint + "/"));
    }

    private SdkHttpFullRequest listQueues(Protocol p) {
        byte[] body = (p == Protocol.JSON ? "{}" : "Action=ListQueues&Version=2012-11-05").getBytes(StandardCharsets.UTF_8);
        SdkHttpFullRequest.Builder b = post(endpoint).contentStreamProvider(() -> new ByteArrayInputStream(body));
        if (p == Protocol.JSON) {
            b.putHeader("Content-Type", "application/x-amz-json-1.0").putHeader("X-Amz-Target", "AmazonSQS.ListQueues");
        } else {
            b.putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
        }
        return b.build();
    }

    private SdkHttpFullRequest stsCall() {
        byte[] body = "Action=GetCallerIdentity&Version=2011-06-15".getBytes(StandardCharsets.UTF_8);
        return post(endpoint).putHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .contentStreamProvider(() -> new ByteArrayInputStream(body)).build();
    }

    private static AwsCredentials creds(String id, String secret) {
        return AwsBasicCredentials.create(id, secret);
    }

    private SdkHttpFullRequest sign(SdkHttpFullRequest request, AwsCredentials credentials, Duration skew) {
        return sign(request, credentials, skew, "sqs");
    }

    private SdkHttpFullRequest sign(SdkHttpFullRequest request, AwsCredentials credentials, Duration skew, String service) {
        Aws4SignerParams params = Aws4SignerParams.builder().awsCredentials(credentials).signingName(service)
                .signingRegion(Region.US_EAST_1).signingClockOverride(Clock.fixed(clock.instant().plus(skew), ZoneOffset.UTC)).build();
        return Aws4Signer.create().sign(request, params);
    }

    private Aws4PresignerParams presign(Instant signedAt, Duration validity) {
        return Aws4PresignerParams.builder().awsCredentials(creds(ROOT_A, ROOT_A_SECRET)).signingName("sqs")
                .signingRegion(Region.US_EAST_1).signingClockOverride(Clock.fixed(signedAt, ZoneOffset.UTC))
                .expirationTime(signedAt.plus(validity)).build();
    }

    private RawHttp.Response send(SdkHttpFullRequest signed, UnaryOperator<HttpRequest.Builder> change) {
        return send(signed, bodyOf(signed), change);
    }

    private RawHttp.Response send(SdkHttpFullRequest signed, byte[] body, UnaryOperator<HttpRequest.Builder> change) {
        HttpRequest.Builder b = HttpRequest.newBuilder(signed.getUri()).method(signed.method().name(), HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> h : signed.headers().entrySet()) {
            if (!RESTRICTED.contains(h.getKey().toLowerCase())) {
                h.getValue().forEach(v -> b.header(h.getKey(), v));
            }
        }
        try {
            HttpResponse<String> r = http.send(change.apply(b).build(), HttpResponse.BodyHandlers.ofString());
            return new RawHttp.Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] bodyOf(SdkHttpFullRequest r) {
        return r.contentStreamProvider().map(p -> {
            try {
                return p.newStream().readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).orElse(new byte[0]);
    }

    private static void expect(RawHttp.Response r, Protocol p, int status, String code, String message) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        if (p == Protocol.JSON) {
            assertThat(r.header("x-amzn-query-error")).isEqualTo(code + ";Sender");
            assertThat(r.body()).contains("\"message\":\"" + message + "\"");
        } else {
            assertThat(r.body()).contains("<Type>Sender</Type><Code>" + code + "</Code><Message>" + xml(message) + "</Message>");
        }
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String basic(Instant t) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(t);
    }
}
