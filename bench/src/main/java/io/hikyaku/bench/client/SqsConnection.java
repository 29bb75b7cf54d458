package io.hikyaku.bench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;

/** One keep-alive connection with a single request in flight; reconnects lazily after a close. */
public final class SqsConnection {
    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    /** Looks like SigV4; the servers under test do not verify signatures. */
    static final String FAKE_AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/sqs/aws4_request, "
            + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0".repeat(64);

    private final SqsHttpClient client;
    private volatile Channel channel;
    private volatile CompletableFuture<SqsResponse> pending;

    SqsConnection(SqsHttpClient client) {
        this.client = client;
    }

    /** Builds the POST for one action; public so tests can check the wire form. */
    public static FullHttpRequest buildRequest(String hostHeader, String action, byte[] body) {
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.wrappedBuffer(body));
        req.headers()
                .set(HttpHeaderNames.HOST, hostHeader)
                .set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE)
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set("X-Amz-Target", "AmazonSQS." + action)
                .set("X-Amz-Date", "20260101T000000Z")
                .set(HttpHeaderNames.AUTHORIZATION, FAKE_AUTHORIZATION);
        return req;
    }

    CompletableFuture<Void> ensureConnected() {
        Channel ch = channel;
        if (ch != null && ch.isActive()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        ChannelFuture cf = client.bootstrap().connect(client.host(), client.port());
        cf.addListener(f -> {
            if (!f.isSuccess()) {
                done.completeExceptionally(f.cause());
                return;
            }
            Channel c = cf.channel();
            c.pipeline().addLast(new ResponseHandler());
            channel = c;
            done.complete(null);
        });
        return done;
    }

    /** Sends one action; completes with the response, or exceptionally on a transport failure. */
    public CompletableFuture<SqsResponse> call(String action, ObjectNode input) {
        byte[] body = SqsRequests.bytes(input);
        CompletableFuture<SqsResponse> result = new CompletableFuture<>();
        ensureConnected().whenComplete((ok, err) -> {
            if (err != null) {
                result.completeExceptionally(err);
                return;
            }
            if (pending != null) {
                result.completeExceptionally(new IllegalStateException("request already in flight"));
                return;
            }
            pending = result;
            channel.writeAndFlush(buildRequest(client.hostHeader(), action, body)).addListener(f -> {
                if (!f.isSuccess()) {
                    fail(f.cause());
                }
            });
        });
        return result;
    }

    /** The same call, but a non-200 status completes exceptionally with SqsCallException. */
    public CompletableFuture<JsonNode> callOk(String action, ObjectNode input) {
        return call(action, input).thenApply(r -> {
            if (!r.ok()) {
                throw new SqsCallException(r.status(), action + ": " + r.body());
            }
            return r.body();
        });
    }

    public Channel channel() {
        return channel;
    }

    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    private void fail(Throwable cause) {
        CompletableFuture<SqsResponse> p = pending;
        pending = null;
        if (p != null) {
            p.completeExceptionally(cause);
        }
    }

    private final class ResponseHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse msg) {
            SqsResponse response = new SqsResponse(msg.status().code(), parse(msg.content()));
            CompletableFuture<SqsResponse> p = pending;
            pending = null;
            if (p != null) {
                p.complete(response);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(new ClosedChannelException());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(cause);
            ctx.close();
        }
    }

    static JsonNode parse(ByteBuf content) {
        if (!content.isReadable()) {
            return SqsRequests.JSON.createObjectNode();
        }
        String fallback = null;
        try {
            fallback = content.toString(content.readerIndex(), Math.min(content.readableBytes(), 512),
                    java.nio.charset.StandardCharsets.UTF_8);
            return SqsRequests.JSON.readTree((java.io.InputStream) new ByteBufInputStream(content));
        } catch (IOException e) {
            return TextNode.valueOf(fallback);
        }
    }
}
