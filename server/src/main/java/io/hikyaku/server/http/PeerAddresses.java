package io.hikyaku.server.http;

import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/** Where a connection comes from, for admin requests. */
final class PeerAddresses {

    private PeerAddresses() {}

    /** The peer's IP address, or null (e.g. a test channel). */
    static InetAddress inetOf(Channel channel) {
        return channel.remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress() : null;
    }

    /** The peer's IP address as text, or null (e.g. a test channel). */
    static String ipOf(Channel channel) {
        if (channel.remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null) {
            return remote.getAddress().getHostAddress();
        }
        return null;
    }

    /** The peer's IP address as text (aws:SourceIp), or null when not an IP connection. */
    static String sourceIp(Channel channel) {
        return channel.remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null
                ? remote.getAddress().getHostAddress() : null;
    }

    /**
     * True for a loopback peer, or a peer whose address is the one it connected to (a client on this
     * machine talking to a server bound to a specific non-loopback address).
     */
    static boolean fromThisHost(Channel channel) {
        if (!(channel.remoteAddress() instanceof InetSocketAddress remote)
                || !(channel.localAddress() instanceof InetSocketAddress local)) {
            return false;
        }
        if (remote.getAddress() == null) {
            return false;
        }
        return remote.getAddress().isLoopbackAddress() || remote.getAddress().equals(local.getAddress());
    }
}
