package io.hikyaku.server.http;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.SslContext;
import java.net.InetAddress;
import java.time.Clock;

/**
 * The per-connection pipeline: admission against the connection limits ({@link ConnectionGuards}), the
 * metered HTTP codec, size guard, aggregation (which also answers
 * {@code Expect: 100-continue}), request handling. Kept short on purpose: every handler is paid once
 * per connection, and a server with 10,000 parked long polls holds 10,000 pipelines. Idle connections
 * are closed by {@link IdleConnections}, not by a timer per connection.
 */
public final class HttpChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** Query GETs carry all parameters in the request line; 64 KiB is plenty and still bounded. */
    static final int MAX_INITIAL_LINE = 64 * 1024;
    static final int MAX_HEADER_BYTES = 32 * 1024;

    private final RequestDispatcher dispatcher;
    private final ServerState state;
    private final Clock clock;
    private final int maxBodyBytes;
    /** TLS for this listener, or null for plain HTTP. */
    private final SslContext tls;

    private final ConnectionGuards guards;

    public HttpChannelInitializer(RequestDispatcher dispatcher, ServerState state, Clock clock, int maxBodyBytes) {
        this(dispatcher, state, clock, maxBodyBytes, null);
    }

    public HttpChannelInitializer(RequestDispatcher dispatcher, ServerState state, Clock clock, int maxBodyBytes, SslContext tls) {
        this(dispatcher, state, clock, maxBodyBytes, tls, ConnectionGuards.of(ConnectionLimits.DEFAULTS, false, maxBodyBytes, clock));
    }

    /**
     * @param tls    the TLS context of an HTTPS listener, or null for HTTP
     * @param guards the server's connection limits and what is counted against them
     */
    public HttpChannelInitializer(RequestDispatcher dispatcher, ServerState state, Clock clock, int maxBodyBytes, SslContext tls,
                                  ConnectionGuards guards) {
        this.guards = guards;
        this.tls = tls;
        this.dispatcher = dispatcher;
        this.state = state;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        InetAddress peer = PeerAddresses.inetOf(channel);
        ConnectionProblems.Kind refused = guards.counts().admit(peer);
        if (refused != null) {
            guards.problems().count(refused, peer);
            channel.close();
            return;
        }
        channel.closeFuture().addListener(closed -> guards.counts().release(peer));
        ChannelPipeline p = channel.pipeline();
        if (tls != null) {
            p.addLast("tls", tls.newHandler(channel.alloc()));
        }
        p.addLast("http", new MeteredServerCodec(new HttpDecoderConfig()
                .setMaxInitialLineLength(MAX_INITIAL_LINE)
                .setMaxHeaderSize(MAX_HEADER_BYTES), guards));
        p.addLast("size-guard", new OversizeGuard(maxBodyBytes, guards));
        p.addLast("aggregate", new BoundedAggregator(maxBodyBytes));
        p.addLast("requests", new RequestHandler(dispatcher, state, clock, guards.problems()));
    }
}
