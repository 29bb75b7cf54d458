package io.hikyaku.bench.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class RequestHeadTest {
    private static final byte[] BODY = "{\"QueueUrl\":\"u\",\"MessageBody\":\"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);

    private static String wire(ByteBuf buf) {
        try {
            return buf.toString(StandardCharsets.ISO_8859_1);
        } finally {
            buf.release();
        }
    }

    /** What the client wrote before: Netty's encoder on a DefaultFullHttpRequest. */
    private static String nettyEncoded(String host, String action, byte[] body) {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.wrappedBuffer(body));
        req.headers()
                .set(HttpHeaderNames.HOST, host)
                .set(HttpHeaderNames.CONTENT_TYPE, RequestHead.CONTENT_TYPE)
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set("X-Amz-Target", "AmazonSQS." + action)
                .set("X-Amz-Date", RequestHead.DATE)
                .set(HttpHeaderNames.AUTHORIZATION, RequestHead.FAKE_AUTHORIZATION);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        ch.writeOutbound(req);
        StringBuilder out = new StringBuilder();
        for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
            out.append(wire(b));
        }
        ch.finishAndReleaseAll();
        return out.toString();
    }

    @Test
    void sameBytesAsNettysEncoderWrote() {
        String ours = wire(new RequestHead("127.0.0.1:9324", "SendMessage").request(ByteBufAllocator.DEFAULT, BODY));
        assertThat(ours).isEqualTo(nettyEncoded("127.0.0.1:9324", "SendMessage", BODY));
        assertThat(wire(new RequestHead("h:1", "ListQueues").request(ByteBufAllocator.DEFAULT, new byte[0])))
                .isEqualTo(nettyEncoded("h:1", "ListQueues", new byte[0]));
    }

    @Test
    void isAnAwsJson10PostAsAServerDecodesIt() {
        EmbeddedChannel server = new EmbeddedChannel(new HttpRequestDecoder(), new HttpObjectAggregator(1 << 20));
        server.writeInbound(new RequestHead("127.0.0.1:9324", "ReceiveMessage").request(ByteBufAllocator.DEFAULT, BODY));
        FullHttpRequest req = server.readInbound();
        try {
            assertThat(req.decoderResult().isSuccess()).isTrue();
            assertThat(req.method().name()).isEqualTo("POST");
            assertThat(req.uri()).isEqualTo("/");
            assertThat(req.headers().get("X-Amz-Target")).isEqualTo("AmazonSQS.ReceiveMessage");
            assertThat(req.headers().get("Content-Type")).isEqualTo("application/x-amz-json-1.0");
            assertThat(req.headers().get("Host")).isEqualTo("127.0.0.1:9324");
            assertThat(req.headers().get("X-Amz-Date")).isEqualTo("20260101T000000Z");
            assertThat(req.headers().getInt("Content-Length")).isEqualTo(BODY.length);
            assertThat(req.headers().get("Authorization")).startsWith("AWS4-HMAC-SHA256 Credential=");
            assertThat(req.content().toString(StandardCharsets.UTF_8)).isEqualTo(new String(BODY, StandardCharsets.UTF_8));
        } finally {
            req.release();
            server.finishAndReleaseAll();
        }
    }
}
