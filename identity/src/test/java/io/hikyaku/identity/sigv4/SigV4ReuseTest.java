package io.hikyaku.identity.sigv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Verification reuses per-thread buffers, a MAC keyed with the last signing key and the last parsed
 * scope: these check that nothing of one request leaks into the next (other keys, other secrets,
 * other dates on one thread), and the exact comparisons it makes without Strings (signature read
 * case-insensitively, x-amz-content-sha256 exactly), and a signed header that is not ASCII.
 */
class SigV4ReuseTest {

    private static final Instant AT = Instant.parse("2026-12-06T03:30:00Z");
    private static final String BODY = "{\"QueueUrl\":\"http://localhost:9324/111111111111/q\",\"MessageBody\":\"x\"}";
    private static final Credential A = credential("AKIAREUSETESTAAAAAAA", "secret-a");
    private static final Credential B = credential("AKIAREUSETESTBBBBBBB", "secret-b");

    private final SigV4Verifier verifier = new SigV4Verifier(Clock.fixed(AT, ZoneOffset.UTC),
            id -> id.equals(A.accessKeyId()) ? Optional.of(A) : id.equals(B.accessKeyId()) ? Optional.of(B) : Optional.empty());

    @Test
    void keysSecretsAndDatesChangingFromRequestToRequestOnOneThread() {
        for (int round = 0; round < 3; round++) {
            assertThat(verifier.verify(sign(A, "secret-a", AT, List.of(), BODY, null)).credential()).isSameAs(A);
            assertThat(verifier.verify(sign(B, "secret-b", AT.minusSeconds(700), List.of(), BODY + " ", null)).credential()).isSameAs(B);
            assertBad(sign(A, "secret-b", AT, List.of(), BODY, null)); // A's key id, B's secret
            assertThat(verifier.verify(sign(A, "secret-a", AT.plusSeconds(1), List.of(), BODY, null)).credential()).isSameAs(A);
        }
    }

    @Test
    void aSignatureIsComparedWhateverItsCase() {
        SignedRequest r = sign(A, "secret-a", AT, List.of(), BODY, null);
        String auth = r.header("authorization");
        int at = auth.indexOf("Signature=") + "Signature=".length();
        String upper = auth.substring(0, at) + auth.substring(at).toUpperCase(java.util.Locale.ROOT);
        assertThat(verifier.verify(withAuthorization(r, upper))).isNotNull();
        String shorter = auth.substring(0, auth.length() - 1);
        assertBad(withAuthorization(r, shorter));
        String lastDigitChanged = shorter + (auth.endsWith("0") ? "1" : "0");
        assertBad(withAuthorization(r, lastDigitChanged));
    }

    @Test
    void aDeclaredPayloadHashMustBeTheBodysExactly() {
        String hash = Hashes.sha256Hex(BODY.getBytes(StandardCharsets.UTF_8));
        assertThat(verifier.verify(sign(A, "secret-a", AT, List.of(), BODY, hash))).isNotNull();
        assertThat(verifier.verify(sign(A, "secret-a", AT, List.of(), BODY, " " + hash + " "))).as("trimmed").isNotNull();
        assertBad(sign(A, "secret-a", AT, List.of(), BODY, hash.toUpperCase(java.util.Locale.ROOT)));
        assertBad(sign(A, "secret-a", AT, List.of(), BODY, Hashes.sha256Hex("other")));
        assertBad(sign(A, "secret-a", AT, List.of(), BODY, hash.substring(1)));
    }

    @Test
    void aSignedHeaderThatIsNotAscii() {
        List<Map.Entry<String, String>> extra = List.of(Map.entry("x-amz-meta-note", "  café \t über  alles "));
        assertThat(verifier.verify(sign(A, "secret-a", AT, extra, BODY, null))).isNotNull();
        SignedRequest r = sign(A, "secret-a", AT, extra, BODY, null);
        List<Map.Entry<String, String>> changed = new ArrayList<>(r.headers());
        changed.replaceAll(e -> e.getKey().equals("x-amz-meta-note") ? Map.entry(e.getKey(), "cafe über alles") : e);
        assertBad(new SignedRequest(r.method(), r.rawPath(), r.rawQuery(), changed, r.body()));
    }

    @Test
    void aLargeRequestAndThenASmallOne() {
        List<Map.Entry<String, String>> big = List.of(Map.entry("x-amz-meta-big", "v".repeat(40_000)));
        assertThat(verifier.verify(sign(A, "secret-a", AT, big, BODY, null))).isNotNull();
        assertThat(verifier.verify(sign(A, "secret-a", AT, List.of(), BODY, null))).isNotNull();
    }

    private void assertBad(SignedRequest r) {
        assertThatThrownBy(() -> verifier.verify(r)).isInstanceOf(AuthException.class)
                .satisfies(e -> assertThat(((AuthException) e).error()).isEqualTo(AuthError.SIGNATURE_DOES_NOT_MATCH));
    }

    private static Credential credential(String keyId, String secret) {
        return Credential.longTerm(keyId, new Secret(secret), Principal.accountRoot("111111111111"));
    }

    private static SignedRequest withAuthorization(SignedRequest r, String authorization) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(r.headers());
        headers.replaceAll(e -> e.getKey().equals("authorization") ? Map.entry("authorization", authorization) : e);
        return new SignedRequest(r.method(), r.rawPath(), r.rawQuery(), headers, r.body());
    }

    /** Signs with the String-building reference path ({@link Canonical#request}), as a client would. */
    private static SignedRequest sign(Credential key, String secret, Instant at, List<Map.Entry<String, String>> extra,
                                      String body, String declaredHash) {
        String amzDate = SigV4Verifier.BASIC.format(at);
        String day = amzDate.substring(0, 8);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        headers.add(Map.entry("host", "localhost:9324"));
        headers.add(Map.entry("x-amz-date", amzDate));
        headers.addAll(extra);
        if (declaredHash != null) {
            headers.add(Map.entry("x-amz-content-sha256", declaredHash));
        }
        List<String> names = headers.stream().map(Map.Entry::getKey).distinct().sorted().toList();
        String payload = declaredHash != null ? declaredHash.trim() : Hashes.sha256Hex(bytes);
        String canonical = Canonical.request(new SignedRequest("POST", "/", "", headers, bytes), names, payload, false);
        String scope = day + "/us-east-1/sqs/aws4_request";
        String signature = Canonical.signature(secret, day, "us-east-1", "sqs", Canonical.stringToSign(amzDate, scope, canonical));
        headers.add(Map.entry("authorization", "AWS4-HMAC-SHA256 Credential=" + key.accessKeyId() + "/" + scope
                + ", SignedHeaders=" + String.join(";", names) + ", Signature=" + signature));
        return new SignedRequest("POST", "/", "", headers, bytes);
    }
}
