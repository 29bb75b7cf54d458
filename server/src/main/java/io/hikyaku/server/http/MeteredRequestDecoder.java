package io.hikyaku.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's request decoder, with what a partial request head holds counted against the server-wide
 * head budget ({@link ConnectionGuards#heads()}) and its start time kept for the head timeout.
 *
 * <p>Netty keeps an unfinished line in its cumulation buffer and the headers parsed so far on the heap;
 * ~90 KB per connection from 1,500 connections exhausted 128 MiB of direct memory (issue 35). After
 * every read, this connection's charge is the cumulation's capacity (the direct memory really held)
 * plus the head bytes parsed so far; a connection whose charge would pass the budget is closed. A
 * connection is also closed when its partial head grows while real direct-memory use is past half of
 * the maximum ({@link DirectMemory}). A request whose head arrives in one read is never charged, so small requests (and {@code /health})
 * pass even while the budget is full.
 */
final class MeteredRequestDecoder extends HttpRequestDecoder {

    private final ConnectionGuards guards;
    private long charged;
    private long parsedHeadBytes;
    private boolean inBody;
    private boolean refused;
    /** Clock millis when the head being read began (0: none), read by the sweep on another thread. */
    private volatile long headSinceMillis;
    /** Clock millis when the body being read began (0: none). */
    private volatile long bodySinceMillis;

    MeteredRequestDecoder(HttpDecoderConfig config, ConnectionGuards guards) {
        super(config);
        this.guards = guards;
        this.headSinceMillis = guards.clock().millis(); // a new connection has this long to send its first head
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (refused) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        if (!inBody && headSinceMillis == 0 && buffer.isReadable()) {
            headSinceMillis = guards.clock().millis();
        }
        int before = buffer.readableBytes();
        int firstNew = out.size();
        super.decode(ctx, buffer, out);
        boolean wasInBody = inBody;
        for (int i = firstNew; i < out.size(); i++) {
            Object m = out.get(i);
            if (m instanceof HttpRequest) {
                inBody = true;
                parsedHeadBytes = 0;
                headSinceMillis = 0;
                bodySinceMillis = guards.clock().millis();
            }
            if (m instanceof LastHttpContent) {
                inBody = false;
                bodySinceMillis = 0;
            }
        }
        if (!wasInBody && !inBody && out.size() == firstNew) {
            parsedHeadBytes += before - buffer.readableBytes();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        settle(ctx);
    }

    /** Charges (or gives back) what this connection now holds; closes it when the budget cannot take it. */
    private void settle(ChannelHandlerContext ctx) {
        if (refused) {
            return;
        }
        ByteBuf held = internalBuffer();
        long now = (held.isReadable() ? held.capacity() : 0) + (inBody ? 0 : parsedHeadBytes);
        long delta = now - charged;
        if (delta <= 0) {
            guards.heads().give(-delta);
            charged = now;
            return;
        }
        if (!DirectMemory.tight(DirectMemory.HEAD_SHARE, delta) && guards.heads().tryTake(delta)) {
            charged = now;
            return;
        }
        refuse(ctx, ConnectionProblems.Kind.HEAD_BUDGET);
    }

    private void refuse(ChannelHandlerContext ctx, ConnectionProblems.Kind why) {
        refused = true;
        release();
        guards.problems().count(why, PeerAddresses.inetOf(ctx.channel()));
        ctx.channel().close();
    }

    private void release() {
        guards.heads().give(charged);
        charged = 0;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            super.channelInactive(ctx);
        } finally {
            release();
            refused = true;
        }
    }

    /** Why this connection is too slow at {@code nowMillis}, or null. Any thread. */
    ConnectionProblems.Kind tooSlow(long nowMillis) {
        long head = headSinceMillis;
        if (head != 0 && nowMillis - head >= guards.limits().headTimeoutMillis()) {
            return ConnectionProblems.Kind.SLOW_HEAD;
        }
        long body = bodySinceMillis;
        if (body != 0 && nowMillis - body >= guards.limits().bodyTimeoutMillis()) {
            return ConnectionProblems.Kind.SLOW_BODY;
        }
        return null;
    }
}
