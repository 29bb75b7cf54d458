package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Refuses a request whose declared Content-Length is over the limit as soon as its head arrives:
 * nothing of the body is buffered, and a client that sent {@code Expect: 100-continue} never gets
 * the go-ahead (this handler sits before the aggregator, which sends it). Chunked bodies that grow too
 * large are caught by {@link BoundedAggregator}.
 */
final class OversizeGuard extends ChannelInboundHandlerAdapter {

    private final long maxBodyBytes;
    private boolean discarding;

    OversizeGuard(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
            discarding = false;
            if (declaredLength(request) > maxBodyBytes) {
                discarding = !(msg instanceof LastHttpContent);
                HttpRequestData head = RejectedRequest.headOf(request);
                ReferenceCountUtil.release(msg);
                ctx.fireChannelRead(new RejectedRequest(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                        "Request body exceeds " + maxBodyBytes + " bytes", request.protocolVersion(), head));
                return;
            }
        }
        if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private static long declaredLength(HttpRequest request) {
        try {
            return HttpUtil.getContentLength(request, -1L);
        } catch (NumberFormatException e) {
            return -1L; // the decoder flags a bad Content-Length itself
        }
    }
}
