package io.hikyaku.server.http;

/**
 * What one connection, one source address and all partial requests together may hold, so that no
 * client (authenticated or not) can exhaust the server's connections or its direct memory
 * (docs/security.md "Connection limits").
 *
 * @param maxConnections              open connections at most; more are closed at once
 * @param maxConnectionsPerAddress    open connections from one source IP address at most
 * @param maxPendingHeadBytes         bytes held by request lines and headers not yet complete, over all
 *                                    connections; a connection whose partial head would pass it is closed
 * @param maxPendingBodyBytes         declared bodies being received, over all connections; a request that
 *                                    would pass it gets 503 ServiceUnavailable before its body is read
 * @param headTimeoutMillis           time to send a request line and headers (from the connection's start
 *                                    or the first byte of the next request)
 * @param bodyTimeoutMillis           time to send a request body, once its head has arrived
 * @param maxUnauthenticatedBodyBytes with {@code --auth sigv4}, the body limit of a request whose head names
 *                                    no credential (anonymous access a queue policy allows)
 */
public record ConnectionLimits(int maxConnections, int maxConnectionsPerAddress, long maxPendingHeadBytes,
                               long maxPendingBodyBytes, long headTimeoutMillis, long bodyTimeoutMillis,
                               int maxUnauthenticatedBodyBytes) {

    /**
     * 24,000 connections and 12,000 per address keep 10,000 parked long polls from one client working
     * (~4 KiB of heap each); 16 MiB of partial heads and 64 MiB of bodies stay well inside the launcher's
     * 128 MiB of direct memory.
     */
    public static final ConnectionLimits DEFAULTS = new ConnectionLimits(24_000, 12_000, 16L << 20, 64L << 20,
            20_000, 120_000, 64 * 1024);

    public ConnectionLimits {
        if (maxConnections < 1 || maxConnectionsPerAddress < 1 || maxPendingHeadBytes < 1 || maxPendingBodyBytes < 1
                || headTimeoutMillis < 1 || bodyTimeoutMillis < 1 || maxUnauthenticatedBodyBytes < 0) {
            throw new IllegalArgumentException("connection limits must be positive: " + this);
        }
    }

    public ConnectionLimits withHeadTimeoutMillis(long value) {
        return new ConnectionLimits(maxConnections, maxConnectionsPerAddress, maxPendingHeadBytes, maxPendingBodyBytes,
                value, bodyTimeoutMillis, maxUnauthenticatedBodyBytes);
    }

    public ConnectionLimits withMaxConnectionsPerAddress(int value) {
        return new ConnectionLimits(maxConnections, value, maxPendingHeadBytes, maxPendingBodyBytes,
                headTimeoutMillis, bodyTimeoutMillis, maxUnauthenticatedBodyBytes);
    }
}
