package io.hikyaku.server.http;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import javax.net.ssl.SSLException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the requests of one connection strictly in order, one at a time: HTTP/1.1 pipelining needs
 * responses in request order, and SQS clients expect a pipelined send to happen before the receive
 * after it. The service's future is awaited without blocking the event loop; a parked long poll only
 * holds its own connection. Reading pauses when too many pipelined requests queue up.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);
    private static final int MAX_QUEUED = 16;

    private final RequestDispatcher dispatcher;
    private final ServerState state;
    private final Clock clock;
    /** Small: one request at a time is the usual case, and 10,000 parked connections each hold one. */
    private final ArrayDeque<Pending> queue = new ArrayDeque<>(2);
    private InFlight current;
    private boolean closing;
    /** Clock millis of the last read from or write to this connection, for {@link IdleConnections}. */
    private long lastActiveMillis;

    private final ConnectionProblems problems;

    RequestHandler(RequestDispatcher dispatcher, ServerState state, Clock clock, ConnectionProblems problems) {
        this.problems = problems;
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
    }

    /** A request as read, or the reason it cannot be served (a refusal, or a request too large to read). */
    private record Pending(HttpRequestData data, HttpVersion version, boolean keepAlive, HttpResponseData refusal,
                           RejectedRequest rejected) {
        Pending(HttpRequestData data, HttpVersion version, boolean keepAlive, HttpResponseData refusal) {
            this(data, version, keepAlive, refusal, null);
        }
    }

    /** What answering a request needs once it is dispatched (not its headers or body). */
    private record Reply(HttpVersion version, boolean keepAlive, boolean headOnly) {}

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof FullHttpRequest request) {
            try {
                queue.add(pendingOf(request, ctx.channel()));
            } finally {
                request.release();
            }
        } else if (msg instanceof RejectedRequest rejected) {
            queue.add(new Pending(null, rejected.version(), false, null, rejected));
        } else {
            ctx.fireChannelRead(msg);
            return;
        }
        if (queue.size() > MAX_QUEUED) {
            ctx.channel().config().setAutoRead(false);
        }
        if (current == null) {
            serveNext(ctx);
        }
    }

    private static Pending pendingOf(FullHttpRequest request, Channel channel) {
        DecoderResult result = request.decoderResult();
        if (result.isFailure()) {
            return new Pending(null, HttpVersion.HTTP_1_1, false, refusalFor(result.cause()));
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        try {
            return new Pending(RequestConverter.convert(request, PeerAddresses.sourceIp(channel),
                    channel.pipeline().get(SslHandler.class) != null), request.protocolVersion(), keepAlive, null);
        } catch (IllegalArgumentException e) {
            return new Pending(null, request.protocolVersion(), false,
                    NettyResponses.plain(HttpResponseStatus.BAD_REQUEST, "Bad request target"));
        }
    }

    /** An SQS error in the refused request's protocol when its headers could be read, else plain text. */
    private HttpResponseData tooLarge(RejectedRequest rejected, String requestId) {
        if (rejected.head() == null) {
            return NettyResponses.plain(rejected.status(), rejected.reason());
        }
        return rejected.status().equals(HttpResponseStatus.SERVICE_UNAVAILABLE)
                ? dispatcher.unavailable(rejected.head(), rejected.reason(), requestId)
                : dispatcher.tooLarge(rejected.head(), rejected.reason(), requestId);
    }

    private static HttpResponseData refusalFor(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return NettyResponses.plain(HttpResponseStatus.REQUEST_URI_TOO_LONG, "Request line too long");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return NettyResponses.plain(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request headers too large");
        }
        if (cause instanceof TooLongFrameException) {
            return NettyResponses.plain(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "Request too large");
        }
        return NettyResponses.plain(HttpResponseStatus.BAD_REQUEST, "Malformed HTTP request");
    }

    private void serveNext(ChannelHandlerContext ctx) {
        Pending next = queue.poll();
        if (next == null) {
            ctx.channel().config().setAutoRead(true);
            return;
        }
        String requestId = RequestIds.next();
        if (next.refusal() != null || next.rejected() != null) {
            closing = true;
            queue.clear();
            HttpResponseData refusal = next.refusal() != null ? next.refusal() : tooLarge(next.rejected(), requestId);
            write(ctx, new Reply(next.version(), false, false), requestId, refusal);
            return;
        }
        state.requestStarted();
        Reply reply = new Reply(next.version(), next.keepAlive(), next.data().method().equals(HttpMethod.HEAD.name()));
        InFlight inFlight = dispatcher.dispatch(next.data(), requestId, task -> onEventLoop(ctx, task),
                PeerAddresses.fromThisHost(ctx.channel()), PeerAddresses.ipOf(ctx.channel()));
        current = inFlight;
        inFlight.response().whenComplete((response, neverFails) -> {
            if (ctx.executor().inEventLoop()) {
                finish(ctx, reply, requestId, response);
            } else {
                onEventLoop(ctx, () -> finish(ctx, reply, requestId, response));
            }
        });
    }

    /**
     * Runs {@code task} on the connection's event loop. The service completes futures on its own
     * threads; if the loop is already shut down the task runs where it is, so no exception ever
     * reaches the service's {@code complete()} call.
     */
    private static void onEventLoop(ChannelHandlerContext ctx, Runnable task) {
        try {
            ctx.executor().execute(task);
        } catch (RejectedExecutionException stopped) {
            task.run();
        }
    }

    private void finish(ChannelHandlerContext ctx, Reply request, String requestId, HttpResponseData response) {
        current = null;
        state.requestFinished();
        if (!ctx.channel().isActive()) {
            return;
        }
        boolean keepAlive = request.keepAlive() && state.serving() && !closing;
        if (!keepAlive) {
            closing = true;
        }
        write(ctx, new Reply(request.version(), keepAlive, request.headOnly()), requestId, response);
        if (keepAlive) {
            serveNext(ctx);
        }
    }

    private void write(ChannelHandlerContext ctx, Reply request, String requestId, HttpResponseData response) {
        lastActiveMillis = clock.millis();
        var future = ctx.writeAndFlush(NettyResponses.of(response, requestId, request.version(), request.keepAlive(),
                request.headOnly(), clock));
        future.addListener(request.keepAlive() ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        lastActiveMillis = clock.millis();
        state.channels().add(ctx.channel());
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        queue.clear();
        if (current != null) {
            current.abandon(); // the client left: let a parked long poll go
        }
        ctx.fireChannelInactive();
    }

    /** Every read from the socket counts as activity, also the chunks of a slow upload not yet aggregated. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        lastActiveMillis = clock.millis();
        ctx.fireChannelReadComplete();
    }

    /** Called on this connection's event loop by {@link IdleConnections#sweep()}. */
    void closeIfIdleSince(Channel channel, long cutoffMillis) {
        if (current == null && queue.isEmpty() && lastActiveMillis <= cutoffMillis) {
            channel.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException || cause.getCause() instanceof SSLException) { // incl. plain HTTP sent to a TLS port
            // Resets and failed handshakes are the peer's business: counted, summarized once per interval.
            problems.count(cause instanceof SSLException || cause.getCause() instanceof SSLException
                    ? ConnectionProblems.Kind.TLS : ConnectionProblems.Kind.RESET, PeerAddresses.inetOf(ctx.channel()));
            LOG.debug("Connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            LOG.warn("Connection {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }
}
