package io.hikyaku.server.http;

import java.time.Clock;

/**
 * The limits every connection of a server is held to, and the shared state they are counted in
 * (one instance per server, shared by its listeners).
 *
 * @param unauthenticatedBodyLimit the body limit of a request whose head names no credential: the
 *                                 configured one with {@code --auth sigv4}, else the full body limit
 */
public record ConnectionGuards(ConnectionLimits limits, int unauthenticatedBodyLimit, ConnectionCounts counts,
                               PendingBytes heads, PendingBytes bodies, ConnectionProblems problems, Clock clock) {

    public static ConnectionGuards of(ConnectionLimits limits, boolean credentialsRequired, int maxBodyBytes, Clock clock) {
        int unauthenticated = credentialsRequired ? Math.min(maxBodyBytes, limits.maxUnauthenticatedBodyBytes()) : maxBodyBytes;
        return new ConnectionGuards(limits, unauthenticated, new ConnectionCounts(limits.maxConnections(),
                limits.maxConnectionsPerAddress()), new PendingBytes(limits.maxPendingHeadBytes()),
                new PendingBytes(limits.maxPendingBodyBytes()), new ConnectionProblems(), clock);
    }
}
