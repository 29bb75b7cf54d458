package io.hikyaku.identity.sigv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** Every way a SigV4 request is refused, each with AWS's code and text (requests signed by botocore). */
class SigV4VerifierTest {

    private static final String BAD_SIGNATURE = "The request signature we calculated does not match the signature you provided. "
            + "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

    private final Vectors.Vector json = Vectors.named("post-json");
    private final Vectors.Vector session = Vectors.named("post-query-session");
    private final Vectors.Vector presigned = Vectors.named("presigned-get");

    @Test
    void unsignedRequestIsAnonymous() {
        SignedRequest unsigned = new SignedRequest("POST", "/", "", List.of(Map.entry("host", "h")), new byte[0]);
        assertThat(verifier(json, json.signedAt()).verify(unsigned)).isNull();
    }

    @Test
    void wrongSecret() {
        Credential other = Credential.longTerm(json.accessKeyId(), new Secret("not-the-secret"), Principal.accountRoot("111111111111"));
        SigV4Verifier v = new SigV4Verifier(clockAt(json.signedAt()), id -> Optional.of(other));
        refused(v, json.request()).isInstanceOf(AuthException.class).hasMessage(BAD_SIGNATURE);
        assertThat(error(v, json.request())).isEqualTo(AuthError.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void unknownKey() {
        SigV4Verifier v = new SigV4Verifier(clockAt(json.signedAt()), id -> Optional.empty());
        refused(v, json.request()).hasMessage("The security token included in the request is invalid.");
        assertThat(error(v, json.request())).isEqualTo(AuthError.INVALID_CLIENT_TOKEN_ID);
    }

    @Test
    void sixteenMinutesLateIsExpired() {
        SigV4Verifier v = verifier(json, json.signedAt().plus(Duration.ofMinutes(16)));
        String date = json.amzDate();
        refused(v, json.request()).hasMessageStartingWith("Signature expired: " + date + " is now earlier than ")
                .hasMessageEndingWith(" - 15 min.)");
        assertThat(error(v, json.request())).isEqualTo(AuthError.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void sixteenMinutesEarlyIsNotYetCurrent() {
        SigV4Verifier v = verifier(json, json.signedAt().minus(Duration.ofMinutes(16)));
        refused(v, json.request()).hasMessageStartingWith("Signature not yet current: " + json.amzDate() + " is still later than ")
                .hasMessageEndingWith(" + 15 min.)");
    }

    @Test
    void fourteenMinutesEitherWayIsAccepted() {
        assertThat(verifier(json, json.signedAt().plus(Duration.ofMinutes(14))).verify(json.request())).isNotNull();
        assertThat(verifier(json, json.signedAt().minus(Duration.ofMinutes(14))).verify(json.request())).isNotNull();
    }

    @Test
    void tamperedBody() {
        SignedRequest r = json.request();
        SignedRequest tampered = new SignedRequest(r.method(), r.rawPath(), r.rawQuery(), r.headers(), "{\"x\":1}".getBytes(StandardCharsets.UTF_8));
        refused(verifier(json, json.signedAt()), tampered).hasMessage(BAD_SIGNATURE);
    }

    @Test
    void tamperedSignedHeader() {
        SignedRequest tampered = withHeaders(json.request(), h -> replace(h, "x-amz-target", "AmazonSQS.DeleteQueue"));
        refused(verifier(json, json.signedAt()), tampered).hasMessage(BAD_SIGNATURE);
    }

    @Test
    void unsignedHeaderMayChange() {
        SignedRequest changed = withHeaders(json.request(), h -> {
            h.add(Map.entry("user-agent", "anything"));
            return h;
        });
        assertThat(verifier(json, json.signedAt()).verify(changed)).isNotNull();
    }

    @Test
    void tamperedQuery() {
        SignedRequest r = presigned.request();
        SignedRequest tampered = new SignedRequest(r.method(), r.rawPath(), r.rawQuery().replace("ReceiveMessage", "PurgeQueue"), r.headers(), r.body());
        refused(verifier(presigned, presigned.signedAt()), tampered).hasMessage(BAD_SIGNATURE);
    }

    @Test
    void declaredPayloadHashMustMatchTheBody() {
        SignedRequest r = withHeaders(json.request(), h -> {
            h.add(Map.entry("x-amz-content-sha256", "UNSIGNED-PAYLOAD"));
            return h;
        });
        refused(verifier(json, json.signedAt()), r).hasMessage(BAD_SIGNATURE);
    }

    @Test
    void hostMustBeSigned() {
        SignedRequest r = withHeaders(json.request(), h -> replace(h, "authorization",
                authorization(json).replace("SignedHeaders=content-type;host;x-amz-date;x-amz-target", "SignedHeaders=content-type;x-amz-date;x-amz-target")));
        refused(verifier(json, json.signedAt()), r).hasMessage("'Host' must be a 'SignedHeader' in the AWS Authorization.");
        assertThat(error(verifier(json, json.signedAt()), r)).isEqualTo(AuthError.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void missingAuthorizationParts() {
        SignedRequest r = withHeaders(json.request(), h -> replace(h, "authorization", "AWS4-HMAC-SHA256 Credential=AKIAX/20260101/us-east-1/sqs/aws4_request"));
        refused(verifier(json, json.signedAt()), r).hasMessage("Authorization header requires 'Signature' parameter. "
                + "Authorization header requires 'SignedHeaders' parameter. "
                + "Authorization=AWS4-HMAC-SHA256 Credential=AKIAX/20260101/us-east-1/sqs/aws4_request");
        assertThat(error(verifier(json, json.signedAt()), r)).isEqualTo(AuthError.INCOMPLETE_SIGNATURE);
    }

    @Test
    void credentialScopeProblemsAreReportedTogether() {
        String day = json.amzDate().substring(0, 8);
        SignedRequest r = withHeaders(json.request(), h -> replace(h, "authorization",
                authorization(json).replace("/" + day + "/us-east-1/sqs/aws4_request", "/20200101/Queue/s3/aws4_req")));
        refused(verifier(json, json.signedAt()), r).hasMessage("Credential should be scoped to a valid region, not 'Queue'. "
                + "Credential should be scoped to correct service: 'sqs'. "
                + "Credential should be scoped with a valid terminator: 'aws4_request', not 'aws4_req'. "
                + "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '20200101' != '" + day
                + "', from '" + json.amzDate() + "'.");
    }

    @Test
    void credentialWithTooFewParts() {
        SignedRequest r = withHeaders(json.request(), h -> replace(h, "authorization",
                authorization(json).replaceFirst("Credential=[^,]*", "Credential=AKIAX/us-east-1")));
        refused(verifier(json, json.signedAt()), r).hasMessage("Credential must have exactly 5 slash-delimited elements, "
                + "e.g. keyid/date/region/service/term, got 'AKIAX/us-east-1'");
    }

    @Test
    void badDateFormat() {
        SignedRequest r = withHeaders(json.request(), h -> replace(h, "x-amz-date", "2026-01-01T00:00:00Z"));
        refused(verifier(json, json.signedAt()), r).hasMessage("Date must be in ISO-8601 'basic format'. Got '2026-01-01T00:00:00Z'. "
                + "See http://en.wikipedia.org/wiki/ISO_8601");
    }

    @Test
    void bothAuthorizationForms() {
        SignedRequest r = withHeaders(presigned.request(), h -> {
            h.add(Map.entry("authorization", authorization(json)));
            return h;
        });
        refused(verifier(presigned, presigned.signedAt()), r)
                .hasMessage("Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.");
    }

    @Test
    void sigV2IsRefused() {
        SignedRequest v2 = new SignedRequest("GET", "/", "Action=ListQueues&AWSAccessKeyId=AKIAX&SignatureVersion=2&SignatureMethod=HmacSHA256&Signature=abc",
                List.of(Map.entry("host", "h")), new byte[0]);
        refused(verifier(json, json.signedAt()), v2).hasMessage("The request was not made over HTTPS or did not use SigV4 for signing.");
        assertThat(error(verifier(json, json.signedAt()), v2)).isEqualTo(AuthError.INVALID_SECURITY);
        SignedRequest header = new SignedRequest("GET", "/", "", List.of(Map.entry("host", "h"), Map.entry("authorization", "AWS AKIAX:abc=")), new byte[0]);
        assertThat(error(verifier(json, json.signedAt()), header)).isEqualTo(AuthError.INVALID_SECURITY);
    }

    @Test
    void presignedWithinItsLifetimeAndTheGrace() {
        // X-Amz-Expires=600; AWS documents 15 minutes of grace after a pre-signed request's expiry
        assertThat(verifier(presigned, presigned.signedAt().plusSeconds(600 + 14 * 60)).verify(presigned.request())).isNotNull();
    }

    @Test
    void expiredPresignedUrl() {
        Instant now = presigned.signedAt().plusSeconds(600 + 16 * 60);
        refused(verifier(presigned, now), presigned.request()).hasMessageStartingWith("Signature expired: ");
        assertThat(error(verifier(presigned, now), presigned.request())).isEqualTo(AuthError.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void presignedExpiresOutOfRange() {
        SignedRequest r = presigned.request();
        SignedRequest week = new SignedRequest(r.method(), r.rawPath(), r.rawQuery().replace("X-Amz-Expires=600", "X-Amz-Expires=604801"), r.headers(), r.body());
        refused(verifier(presigned, presigned.signedAt()), week).hasMessage("X-Amz-Expires must be less than a week (in seconds) that is 604800");
        SignedRequest zero = new SignedRequest(r.method(), r.rawPath(), r.rawQuery().replace("X-Amz-Expires=600", "X-Amz-Expires=0"), r.headers(), r.body());
        assertThat(error(verifier(presigned, presigned.signedAt()), zero)).isEqualTo(AuthError.INCOMPLETE_SIGNATURE);
    }

    @Test
    void sessionTokenMissing() {
        SignedRequest r = withHeaders(session.request(), h -> {
            h.removeIf(e -> e.getKey().equals("x-amz-security-token"));
            return h;
        });
        // the token header was signed, so removing it also breaks the signature: AWS reports the signature first
        assertThat(error(verifier(session, session.signedAt()), r)).isEqualTo(AuthError.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void sessionTokenMismatched() {
        Vectors.Vector v = session;
        Credential issued = new Credential(v.accessKeyId(), new Secret(v.secret()), Principal.accountRoot("111111111111"),
                new Secret("a-different-token"), v.signedAt().plusSeconds(3600));
        SigV4Verifier verifier = new SigV4Verifier(clockAt(v.signedAt()), id -> Optional.of(issued));
        refused(verifier, v.request()).hasMessage("The security token included in the request is invalid.");
        assertThat(error(verifier, v.request())).isEqualTo(AuthError.INVALID_CLIENT_TOKEN_ID);
    }

    @Test
    void sessionExpired() {
        Vectors.Vector v = session;
        Credential issued = new Credential(v.accessKeyId(), new Secret(v.secret()), Principal.accountRoot("111111111111"),
                new Secret(v.sessionToken()), v.signedAt().minusSeconds(1));
        SigV4Verifier verifier = new SigV4Verifier(clockAt(v.signedAt()), id -> Optional.of(issued));
        refused(verifier, v.request()).hasMessage("The security token included in the request is expired");
        assertThat(error(verifier, v.request())).isEqualTo(AuthError.EXPIRED_TOKEN);
    }

    @Test
    void tokenWithALongTermKeyIsInvalid() {
        Vectors.Vector v = session;
        Credential longTerm = Credential.longTerm(v.accessKeyId(), new Secret(v.secret()), Principal.accountRoot("111111111111"));
        SigV4Verifier verifier = new SigV4Verifier(clockAt(v.signedAt()), id -> Optional.of(longTerm));
        assertThat(error(verifier, v.request())).isEqualTo(AuthError.INVALID_CLIENT_TOKEN_ID);
    }

    @Test
    void scopeServiceAndKeyAreReadWithoutVerifying() {
        assertThat(SigV4Verifier.scopeService(Vectors.named("post-sts").request())).isEqualTo("sts");
        assertThat(SigV4Verifier.scopeService(presigned.request())).isEqualTo("sqs");
        assertThat(SigV4Verifier.accessKeyId(presigned.request())).isEqualTo(presigned.accessKeyId());
        assertThat(SigV4Verifier.accessKeyId(json.request())).isEqualTo(json.accessKeyId());
    }

    @Test
    void scopeServiceNeedsExactlyFiveScopeParts() {
        assertThat(SigV4Verifier.scopeService(withAuthorization(
                "AWS4-HMAC-SHA256 Credential=AKID/20261206/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=ab")))
                .isEqualTo("sqs");
        assertThat(SigV4Verifier.scopeService(withAuthorization(
                "AWS4-HMAC-SHA256 SignedHeaders=host,Credential=AKID/20261206/eu-west-1/sts/aws4_request"))).isEqualTo("sts");
        assertThat(SigV4Verifier.scopeService(withAuthorization(
                "AWS4-HMAC-SHA256 Credential=AKID/20261206/us-east-1//aws4_request, Signature=ab"))).isEmpty();
        assertThat(SigV4Verifier.scopeService(withAuthorization(
                "AWS4-HMAC-SHA256 Credential=AKID/20261206/us-east-1/sqs, Signature=ab"))).isNull();
        assertThat(SigV4Verifier.scopeService(withAuthorization(
                "AWS4-HMAC-SHA256 Credential=AKID/20261206/us-east-1/sqs/aws4_request/x, Signature=ab"))).isNull();
        assertThat(SigV4Verifier.scopeService(withAuthorization("AWS4-HMAC-SHA256 Credential=, Signature=ab"))).isNull();
        assertThat(SigV4Verifier.scopeService(withAuthorization("AWS4-HMAC-SHA256 Signature=ab"))).isNull();
    }

    private static SignedRequest withAuthorization(String authorization) {
        return new SignedRequest("POST", "/", "", List.of(Map.entry("authorization", authorization)), new byte[0]);
    }

    private static SigV4Verifier verifier(Vectors.Vector v, Instant now) {
        return new SigV4Verifier(clockAt(now), v.lookup());
    }

    private static Clock clockAt(Instant now) {
        return Clock.fixed(now, ZoneOffset.UTC);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> refused(SigV4Verifier v, SignedRequest r) {
        return assertThatThrownBy(() -> v.verify(r)).isInstanceOf(AuthException.class);
    }

    private static AuthError error(SigV4Verifier v, SignedRequest r) {
        try {
            v.verify(r);
        } catch (AuthException e) {
            return e.error();
        }
        throw new AssertionError("accepted");
    }

    private static String authorization(Vectors.Vector v) {
        return v.request().header("authorization");
    }

    private static SignedRequest withHeaders(SignedRequest r, UnaryOperator<List<Map.Entry<String, String>>> change) {
        return new SignedRequest(r.method(), r.rawPath(), r.rawQuery(), change.apply(new ArrayList<>(r.headers())), r.body());
    }

    private static List<Map.Entry<String, String>> replace(List<Map.Entry<String, String>> headers, String name, String value) {
        headers.replaceAll(e -> e.getKey().equals(name) ? Map.entry(name, value) : e);
        return headers;
    }
}
