package io.hikyaku.server.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Clock;

/** The per-connection pipeline: HTTP codec, size guard, 100-continue, aggregation, request handling. */
public final class HttpChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** Query GETs carry all parameters in the request line; 64 KiB is plenty and still bounded. */
    static final int MAX_INITIAL_LINE = 64 * 1024;
    static final int MAX_HEADER_BYTES = 32 * 1024;
    /** Idle keep-alive connections are closed after this long (SDK pools drop theirs sooner). */
    static final int IDLE_SECONDS = 300;

    private final RequestDispatcher dispatcher;
    private final ServerState state;
    private final Clock clock;
    private final int maxBodyBytes;

    public HttpChannelInitializer(RequestDispatcher dispatcher, ServerState state, Clock clock, int maxBodyBytes) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline p = channel.pipeline();
        p.addLast("idle", new IdleStateHandler(0, 0, IDLE_SECONDS));
        p.addLast("http", new HttpServerCodec(new HttpDecoderConfig()
                .setMaxInitialLineLength(MAX_INITIAL_LINE)
                .setMaxHeaderSize(MAX_HEADER_BYTES)));
        p.addLast("size-guard", new OversizeGuard(maxBodyBytes));
        p.addLast("expect-continue", new HttpServerExpectContinueHandler());
        p.addLast("aggregate", new BoundedAggregator(maxBodyBytes));
        p.addLast("requests", new RequestHandler(dispatcher, state, clock));
    }
}
