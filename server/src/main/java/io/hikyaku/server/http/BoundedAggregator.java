package io.hikyaku.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Aggregates request bodies up to the limit. A chunked body that passes the limit is not answered
 * here (Netty's default) but handed on as a {@link RejectedRequest}, so the 413 carries a request id
 * and keeps response order; the rest of that body is discarded by the aggregator.
 */
final class BoundedAggregator extends HttpObjectAggregator {

    private final int maxBodyBytes;

    BoundedAggregator(int maxBodyBytes) {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        ctx.fireChannelRead(new RejectedRequest(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                "Request body exceeds " + maxBodyBytes + " bytes", oversized.protocolVersion(), RejectedRequest.headOf(oversized)));
    }
}
