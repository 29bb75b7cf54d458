package io.hikyaku.bench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/** One keep-alive connection with a single request in flight; reconnects lazily after a close. */
public final class SqsConnection {
    /** Like HttpObjectAggregator's limit before: a larger answer fails the call. */
    private static final int MAX_BODY = 16 << 20;

    private final SqsHttpClient client;
    private volatile Channel channel;
    private volatile Exchange pending;

    SqsConnection(SqsHttpClient client) {
        this.client = client;
    }

    /** The raw answer to the call in flight, delivered on the connection's I/O thread. */
    private interface Exchange {
        /** body is the connection's buffer, valid only during this call. */
        void answered(int status, byte[] body, int length);

        void failed(Throwable cause);
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

    /**
     * The scenarios' hot path: sends one action and hands the handler the fields it needs
     * (SqsReply), read from the answer without building a JSON tree.
     */
    public void send(String action, byte[] body, ReplyHandler handler) {
        start(action, body, new Exchange() {
            @Override
            public void answered(int status, byte[] buf, int length) {
                SqsReply reply = ReplyParser.parse(status, buf, length);
                handler.onReply(reply, reply.ok() ? null : new SqsCallException(status, action + ": " + reply.text()));
            }

            @Override
            public void failed(Throwable cause) {
                handler.onReply(null, cause);
            }
        });
    }

    /** Sends one action; completes with the whole answer as a tree, or exceptionally on a transport failure. */
    public CompletableFuture<SqsResponse> call(String action, byte[] body) {
        CompletableFuture<SqsResponse> result = new CompletableFuture<>();
        start(action, body, new Exchange() {
            @Override
            public void answered(int status, byte[] buf, int length) {
                result.complete(new SqsResponse(status, tree(buf, length)));
            }

            @Override
            public void failed(Throwable cause) {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    /** The same call, but a non-200 status completes exceptionally with SqsCallException. */
    public CompletableFuture<JsonNode> callOk(String action, byte[] body) {
        return call(action, body).thenApply(r -> {
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

    private void start(String action, byte[] body, Exchange exchange) {
        Channel ch = channel;
        if (ch != null && ch.isActive()) {
            write(ch, action, body, exchange);
            return;
        }
        ensureConnected().whenComplete((ok, err) -> {
            if (err != null) {
                exchange.failed(err);
            } else {
                write(channel, action, body, exchange);
            }
        });
    }

    private void write(Channel ch, String action, byte[] body, Exchange exchange) {
        if (pending != null) {
            exchange.failed(new IllegalStateException("request already in flight"));
            return;
        }
        pending = exchange;
        // A failed write reaches ResponseHandler.exceptionCaught through the void promise.
        ch.writeAndFlush(client.head(action).request(ch.alloc(), body, client.signer()), ch.voidPromise());
    }

    private void fail(Throwable cause) {
        Exchange p = pending;
        pending = null;
        if (p != null) {
            p.failed(cause);
        }
    }

    /**
     * Gathers one answer's status and body bytes from HttpResponseDecoder (content-length,
     * chunked or read-to-close alike) into a buffer reused for the connection's life.
     */
    private final class ResponseHandler extends ChannelInboundHandlerAdapter {
        private byte[] body = new byte[0];
        private int length;
        private int status;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
                    fail(o.decoderResult().cause());
                    ctx.close();
                    return;
                }
                if (msg instanceof HttpResponse r) {
                    status = r.status().code();
                    length = 0;
                }
                if (msg instanceof HttpContent c && !append(ctx, c.content())) {
                    return;
                }
                if (msg instanceof LastHttpContent) {
                    Exchange p = pending;
                    pending = null;
                    if (p != null) {
                        p.answered(status, body, length);
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private boolean append(ChannelHandlerContext ctx, ByteBuf content) {
            int n = content.readableBytes();
            if (length + n > MAX_BODY) {
                fail(new TooLongFrameException("answer larger than " + MAX_BODY + " bytes"));
                ctx.close();
                return false;
            }
            if (length + n > body.length) {
                body = Arrays.copyOf(body, Math.max(length + n, Math.max(1024, body.length * 2)));
            }
            content.getBytes(content.readerIndex(), body, length, n);
            length += n;
            return true;
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

    /** The answer as a tree: an empty object when there was no body, its text when it is not JSON. */
    static JsonNode tree(byte[] buf, int length) {
        if (length == 0) {
            return SqsRequests.JSON.createObjectNode();
        }
        try {
            return SqsRequests.JSON.readTree(buf, 0, length);
        } catch (IOException e) {
            return TextNode.valueOf(new String(buf, 0, Math.min(length, 512), StandardCharsets.UTF_8));
        }
    }
}
