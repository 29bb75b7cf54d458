package io.hikyaku.server.http;

import io.netty.channel.Channel;
import java.time.Clock;
import java.util.concurrent.RejectedExecutionException;

/**
 * Closes keep-alive connections that have been idle for {@link #IDLE_MILLIS}, never one with a request
 * in flight (a parked long poll is not idle). One periodic sweep over all connections replaces a
 * timer per connection: with 10,000 parked long polls that per-connection timer, its handler and its
 * scheduled task were a measurable share of the memory each connection costs.
 */
public final class IdleConnections {

    /** Idle keep-alive connections are closed after this long (SDK pools drop theirs sooner). */
    public static final long IDLE_MILLIS = 300_000;
    /** How often the sweep runs; a connection is closed between IDLE_MILLIS and IDLE_MILLIS plus this. */
    public static final long SWEEP_MILLIS = 15_000;

    private final ServerState state;
    private final Clock clock;

    public IdleConnections(ServerState state, Clock clock) {
        this.state = state;
        this.clock = clock;
    }

    /** How often {@link #closeSlowRequests} is meant to run: the granularity of the head and body timeouts. */
    public static final long SLOW_SWEEP_MILLIS = 1_000;

    /**
     * Closes connections that take longer than their limits to send a request head or body (slowloris).
     * Reads each connection's timestamps from this thread; only the slow ones are closed.
     */
    public void closeSlowRequests(ConnectionProblems problems) {
        long now = clock.millis();
        for (Channel channel : state.channels()) {
            MeteredServerCodec codec = channel.pipeline().get(MeteredServerCodec.class);
            ConnectionProblems.Kind slow = codec == null ? null : codec.decoder().tooSlow(now);
            if (slow != null) {
                problems.count(slow, PeerAddresses.inetOf(channel));
                channel.close();
            }
        }
    }

    /** Asks each connection, on its own event loop, to close itself if it has been idle too long. */
    public void sweep() {
        long cutoff = clock.millis() - IDLE_MILLIS;
        for (Channel channel : state.channels()) {
            RequestHandler handler = channel.pipeline().get(RequestHandler.class);
            if (handler == null) {
                continue;
            }
            try {
                channel.eventLoop().execute(() -> handler.closeIfIdleSince(channel, cutoff));
            } catch (RejectedExecutionException stopping) {
                return; // the server is shutting down and closes every connection itself
            }
        }
    }
}
