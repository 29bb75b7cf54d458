package io.hikyaku.bench.client;

import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.Secret;
import io.hikyaku.identity.sigv4.AuthException;
import io.hikyaku.identity.sigv4.SigV4Verifier;
import io.hikyaku.identity.sigv4.SignedRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bench's signed requests, decoded as the server decodes them, pass the server's own SigV4 verifier. */
class SigV4SignerTest {
    private static final String KEY = "AKIABENCH00000000001";
    private static final String SECRET = "bench/secret/0123456789abcdefghijklmnop";
    private static final byte[] BODY = "{\"QueueUrl\":\"u\",\"MessageBody\":\"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);

    private static SigV4Verifier verifier(String secret) {
        Credential credential = Credential.longTerm(KEY, new Secret(secret), Principal.accountRoot("111111111111"));
        return new SigV4Verifier(Clock.system(ZoneOffset.UTC), id -> id.equals(KEY) ? Optional.of(credential) : Optional.empty());
    }

    /** The request's bytes through Netty's server-side decoder, as the SignedRequest the server builds. */
    private static SignedRequest decoded(ByteBuf wire) {
        EmbeddedChannel server = new EmbeddedChannel(new HttpRequestDecoder(), new HttpObjectAggregator(1 << 20));
        server.writeInbound(wire);
        FullHttpRequest req = server.readInbound();
        try {
            List<Map.Entry<String, String>> headers = new ArrayList<>();
            req.headers().forEach(h -> headers.add(Map.entry(h.getKey().toLowerCase(), h.getValue())));
            byte[] body = new byte[req.content().readableBytes()];
            req.content().readBytes(body);
            return new SignedRequest(req.method().name(), "/", "", headers, body);
        } finally {
            req.release();
            server.finishAndReleaseAll();
        }
    }

    @Test
    void aSignedRequestIsVerifiedByTheServersVerifier() {
        SigV4Signer signer = new SigV4Signer(KEY, SECRET, "us-east-1");
        SignedRequest request = decoded(new RequestHead("127.0.0.1:9324", "SendMessage").request(ByteBufAllocator.DEFAULT, BODY, signer));

        SigV4Verifier.Authenticated ok = verifier(SECRET).verify(request);

        assertThat(ok.credential().accessKeyId()).isEqualTo(KEY);
        assertThat(ok.service()).isEqualTo("sqs");
        assertThat(ok.region()).isEqualTo("us-east-1");
        assertThat(request.header("authorization")).contains("SignedHeaders=content-type;host;x-amz-date;x-amz-target");
    }

    @Test
    void anotherSecretOrAnotherBodyDoesNotMatch() {
        SigV4Signer signer = new SigV4Signer(KEY, SECRET, "us-east-1");
        SignedRequest request = decoded(new RequestHead("h:1", "ReceiveMessage").request(ByteBufAllocator.DEFAULT, BODY, signer));
        assertThatThrownBy(() -> verifier("another-secret").verify(request))
                .isInstanceOf(AuthException.class).hasMessageContaining("signature we calculated does not match");

        byte[] tampered = BODY.clone();
        tampered[3] = 'X';
        SignedRequest changedBody = new SignedRequest("POST", "/", "", request.headers(), tampered);
        assertThatThrownBy(() -> verifier(SECRET).verify(changedBody)).isInstanceOf(AuthException.class);
    }

    @Test
    void theDateIsTheSigningTimeAndTheKeyIsDerivedPerDay() {
        SigV4Signer signer = new SigV4Signer(KEY, SECRET, "eu-west-1");
        SigV4Signer.Signature a = signer.sign("h:1", "AmazonSQS.SendMessage", RequestHead.CONTENT_TYPE, BODY,
                Instant.parse("2026-12-05T23:59:59Z"));
        SigV4Signer.Signature b = signer.sign("h:1", "AmazonSQS.SendMessage", RequestHead.CONTENT_TYPE, BODY,
                Instant.parse("2026-12-06T00:00:00Z"));
        assertThat(a.amzDate()).isEqualTo("20261205T235959Z");
        assertThat(a.authorization()).startsWith("AWS4-HMAC-SHA256 Credential=" + KEY + "/20261205/eu-west-1/sqs/aws4_request, ");
        assertThat(b.amzDate()).isEqualTo("20261206T000000Z");
        assertThat(b.authorization()).contains("/20261206/eu-west-1/sqs/aws4_request");
        assertThat(a.authorization()).matches(".*Signature=[0-9a-f]{64}");
    }
}
