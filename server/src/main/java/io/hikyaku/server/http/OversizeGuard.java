package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
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
 *
 * <p>Two more limits are applied here, before any body byte is read: a request whose head names no
 * credential (no Authorization header, no X-Amz-Credential parameter) gets the small unauthenticated
 * limit under {@code --auth sigv4}; and a declared body is reserved in the server-wide body budget
 * ({@link ConnectionGuards#bodies()}) until it has been read, a request the budget cannot take getting
 * 503 ServiceUnavailable.
 */
final class OversizeGuard extends ChannelInboundHandlerAdapter {

    private final long maxBodyBytes;
    private final ConnectionGuards guards;
    private boolean discarding;
    /** The current request's body limit, and its bytes so far (for chunked bodies of anonymous requests). */
    private long limit;
    private long received;
    /** Bytes of the current request reserved in the body budget. */
    private long reserved;

    OversizeGuard(long maxBodyBytes, ConnectionGuards guards) {
        this.maxBodyBytes = maxBodyBytes;
        this.guards = guards;
        this.limit = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
            discarding = false;
            received = 0;
            limit = namesCredential(request) ? maxBodyBytes : guards.unauthenticatedBodyLimit();
            long declared = declaredLength(request);
            if (declared > limit) {
                reject(ctx, msg, request, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, limit < maxBodyBytes
                        ? "Request body of a request without credentials exceeds " + limit + " bytes"
                        : "Request body exceeds " + limit + " bytes");
                return;
            }
            if (declared > 0) {
                if (DirectMemory.tight(DirectMemory.BODY_SHARE, declared) || !guards.bodies().tryTake(declared)) {
                    guards.problems().count(ConnectionProblems.Kind.BODY_BUDGET, PeerAddresses.inetOf(ctx.channel()));
                    reject(ctx, msg, request, HttpResponseStatus.SERVICE_UNAVAILABLE,
                            "The server is receiving too many request bodies at once; retry later");
                    return;
                }
                reserved = declared;
            }
        }
        if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpContent content && limit < maxBodyBytes) {
            received += content.content().readableBytes();
            if (received > limit) { // a chunked body of a request without credentials: no response can be ordered now
                ReferenceCountUtil.release(msg);
                releaseReservation();
                ctx.channel().close();
                return;
            }
        }
        try {
            ctx.fireChannelRead(msg);
        } finally {
            if (msg instanceof LastHttpContent) {
                releaseReservation(); // the aggregated body has been copied out and released
            }
        }
    }

    private void reject(ChannelHandlerContext ctx, Object msg, HttpRequest request, HttpResponseStatus status, String reason) {
        discarding = !(msg instanceof LastHttpContent);
        HttpRequestData head = RejectedRequest.headOf(request);
        ReferenceCountUtil.release(msg);
        ctx.fireChannelRead(new RejectedRequest(status, reason, request.protocolVersion(), head));
    }

    private void releaseReservation() {
        guards.bodies().give(reserved);
        reserved = 0;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseReservation();
        ctx.fireChannelInactive();
    }

    /** True when the head carries a SigV4 credential, in the Authorization header or a presigned URL. */
    private static boolean namesCredential(HttpRequest request) {
        if (request.headers().contains(HttpHeaderNames.AUTHORIZATION)) {
            return true;
        }
        String uri = request.uri();
        int q = uri.indexOf('?');
        return q >= 0 && uri.regionMatches(true, q, "?X-Amz-Credential=", 0, 18)
                || uri.toLowerCase(java.util.Locale.ROOT).contains("&x-amz-credential=");
    }

    private static long declaredLength(HttpRequest request) {
        try {
            return HttpUtil.getContentLength(request, -1L);
        } catch (NumberFormatException e) {
            return -1L; // the decoder flags a bad Content-Length itself
        }
    }
}
