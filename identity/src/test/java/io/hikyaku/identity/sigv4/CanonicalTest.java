package io.hikyaku.identity.sigv4;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Canonical request, string to sign and signature against requests signed by botocore. */
class CanonicalTest {

    static Stream<Vectors.Vector> vectors() {
        return Vectors.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void canonicalRequestIsTheOneTheSignerUsed(Vectors.Vector v) {
        List<String> signed = signedHeaders(v);
        String canonical = Canonical.request(v.request(), signed, Hashes.sha256Hex(v.request().body()), v.presigned());
        assertThat(canonical).isEqualTo(v.canonicalRequest());
        String scope = v.stringToSign().split("\n")[2];
        assertThat(Canonical.stringToSign(v.amzDate(), scope, canonical)).isEqualTo(v.stringToSign());
        String[] s = scope.split("/");
        assertThat(Canonical.signature(v.secret(), s[0], s[1], s[2], v.stringToSign())).isEqualTo(v.signature());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void verifierAcceptsTheSignedRequest(Vectors.Vector v) {
        SigV4Verifier verifier = new SigV4Verifier(Clock.fixed(v.signedAt(), ZoneOffset.UTC), v.lookup());
        SigV4Verifier.Authenticated result = verifier.verify(v.request());
        assertThat(result.credential().accessKeyId()).isEqualTo(v.accessKeyId());
        assertThat(result.service()).isEqualTo(v.stringToSign().split("\n")[2].split("/")[2]);
    }

    @Test
    void pathNormalisation() {
        assertThat(Canonical.uri("")).isEqualTo("/");
        assertThat(Canonical.uri("/")).isEqualTo("/");
        assertThat(Canonical.uri("//a//b")).isEqualTo("/a/b");
        assertThat(Canonical.uri("/a/b/../../..")).isEqualTo("/");
        assertThat(Canonical.uri("/./a/./")).isEqualTo("/a/");
        assertThat(Canonical.uri("/a%2Fb")).isEqualTo("/a%252Fb");
        assertThat(Canonical.uri("/~user/x y")).isEqualTo("/~user/x%20y");
    }

    @Test
    void queryEncodingAndOrder() {
        assertThat(Canonical.query("", false)).isEmpty();
        assertThat(Canonical.query("b&a=&c=3", false)).isEqualTo("a=&b=&c=3");
        assertThat(Canonical.query("x=a+b", false)).isEqualTo("x=a%2Bb");
        assertThat(Canonical.query("x=%e2%82%ac&x=%41", false)).isEqualTo("x=%E2%82%AC&x=A"); // sorted by the encoded text: % before A
        assertThat(Canonical.query("X-Amz-Signature=abc&a=1", true)).isEqualTo("a=1");
    }

    @Test
    void headerValuesAreTrimmedAndFolded() {
        assertThat(Canonical.trimAll("  a  b\t\tc \r\n d  ")).isEqualTo("a b c d");
        assertThat(Canonical.trimAll("")).isEmpty();
        // values that need nothing are copied whole; any other whitespace takes the char-by-char way
        assertThat(Canonical.trimAll("a b c")).isEqualTo("a b c");
        assertThat(Canonical.trimAll(" ")).isEmpty();
        assertThat(Canonical.trimAll("a  b")).isEqualTo("a b");
        assertThat(Canonical.trimAll(" a")).isEqualTo("a");
        assertThat(Canonical.trimAll("a ")).isEqualTo("a");
        assertThat(Canonical.trimAll("a\u000bb")).isEqualTo("a b");
        assertThat(Canonical.trimAll("a\fb")).isEqualTo("a b");
        assertThat(Canonical.trimAll("caf\u00e9 \u00fcber")).isEqualTo("caf\u00e9 \u00fcber");
    }

    private static List<String> signedHeaders(Vectors.Vector v) {
        String[] lines = v.canonicalRequest().split("\n", -1);
        return Arrays.asList(lines[lines.length - 2].toLowerCase(Locale.ROOT).split(";"));
    }
}
