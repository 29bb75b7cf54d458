package io.hikyaku.bench.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpResponseDecoder;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Netty HTTP/1.1 client for one SQS endpoint. Each virtual user gets its own keep-alive
 * connection with at most one request in flight, so no pooling or locking is needed.
 */
public final class SqsHttpClient implements AutoCloseable {
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final String host;
    private final int port;
    private final ConcurrentHashMap<String, RequestHead> heads = new ConcurrentHashMap<>();

    /** Signs every request when not null; else the fixed fake Authorization (servers with auth off). */
    private final SigV4Signer signer;

    public SqsHttpClient(URI endpoint, int ioThreads) {
        this(endpoint, ioThreads, null);
    }

    public SqsHttpClient(URI endpoint, int ioThreads, SigV4Signer signer) {
        this.signer = signer;
        this.host = endpoint.getHost();
        this.port = endpoint.getPort() > 0 ? endpoint.getPort() : 80;
        // Native epoll where there is one: cheaper per request than the JDK selector (NIO).
        boolean epoll = Epoll.isAvailable();
        this.group = new MultiThreadIoEventLoopGroup(ioThreads,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        // Requests are written as ready-made bytes (RequestHead), so only a decoder is
                        // needed; SqsConnection gathers the body itself rather than an aggregator.
                        ch.pipeline().addLast(new HttpResponseDecoder(new HttpDecoderConfig().setValidateHeaders(false)));
                    }
                });
    }

    /** A new connection (a virtual user); the future completes once TCP is connected. */
    public CompletableFuture<SqsConnection> connect() {
        SqsConnection connection = new SqsConnection(this);
        return connection.ensureConnected().thenApply(ignored -> connection);
    }

    Bootstrap bootstrap() {
        return bootstrap;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    String hostHeader() {
        return host + ":" + port;
    }

    /** The encoded HTTP head for an action, made on first use. */
    RequestHead head(String action) {
        RequestHead h = heads.get(action);
        return h != null ? h : heads.computeIfAbsent(action, a -> new RequestHead(hostHeader(), a));
    }

    SigV4Signer signer() {
        return signer;
    }

    public EventLoopGroup group() {
        return group;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
