package io.hikyaku.server;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.Locale;

/**
 * The socket transport: Netty's native epoll where it loads (Linux on x86_64 and aarch64), the JDK's
 * NIO selector elsewhere. Epoll skips the selector's locks, key sets and buffer copies; in the bench
 * client the selector was ~8% of the CPU per request. {@code -Dhikyaku.transport=nio} forces NIO
 * (a way out should the native library misbehave on some kernel).
 */
enum NettyTransport {
    EPOLL,
    NIO;

    static final String PROPERTY = "hikyaku.transport";

    /** What this process uses: the property if set to nio/epoll, else epoll when available. */
    static NettyTransport chosen() {
        String wanted = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        return switch (wanted) {
            case "nio" -> NIO;
            case "epoll" -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("-D" + PROPERTY + "=epoll, but native epoll is not available: "
                            + Epoll.unavailabilityCause());
                }
                yield EPOLL;
            }
            case "auto" -> Epoll.isAvailable() ? EPOLL : NIO;
            default -> throw new IllegalStateException("-D" + PROPERTY + " must be auto, epoll or nio, not " + wanted);
        };
    }

    IoHandlerFactory ioHandlerFactory() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
