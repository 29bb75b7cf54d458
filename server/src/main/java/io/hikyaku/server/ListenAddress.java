package io.hikyaku.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;

/**
 * The address the server will listen on, checked before anything else is created: a host that does
 * not resolve is named as such, and a port that is taken is found before a new data directory is made
 * (a probe binds and releases it without listening; the real bind comes once the store is open and the
 * configured queues exist, so the port only answers when the server is ready).
 */
final class ListenAddress {

    private ListenAddress() {}

    /** {@code host} resolved, brackets of an IPv6 literal removed. */
    static InetSocketAddress resolve(String host, int port) {
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            return new InetSocketAddress(InetAddress.getByName(name), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("cannot listen on " + host + ":" + port + ": host '" + host
                    + "' does not resolve to an address", e);
        }
    }

    /** Fails with "cannot listen on host:port: why" when the port cannot be bound now; port 0 always can. */
    static void checkFree(String host, InetSocketAddress address) {
        if (address.getPort() == 0) {
            return;
        }
        // A plain socket, never a listening one: a client knocking during the probe must be refused,
        // not accepted and then reset when the probe closes. Binding still fails on a port another
        // process listens on, even with SO_REUSEADDR.
        try (Socket probe = new Socket()) {
            probe.setReuseAddress(true); // as the real listener: a port in TIME_WAIT is free
            probe.bind(address);
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on " + host + ":" + address.getPort() + ": " + e.getMessage(), e);
        }
    }
}
