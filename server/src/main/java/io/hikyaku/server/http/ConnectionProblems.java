package io.hikyaku.server.http;

import java.net.InetAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts refused connections and connection errors and logs them as one summary line per interval
 * ({@link #report()}), never a line or a stack trace per connection: a flood must not flood the log.
 * The first problem after a quiet interval is logged at once, so a burst is seen when it begins.
 */
public final class ConnectionProblems {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionProblems.class);
    /** How often {@link #report()} is meant to run. */
    public static final long REPORT_MILLIS = 10_000;
    /** Source addresses remembered per interval at most (to name the busiest). */
    private static final int MAX_ADDRESSES = 1_000;

    /** What went wrong; refusals first, then errors of the peer. */
    enum Kind {
        TOO_MANY_CONNECTIONS("over the connection limit", true),
        TOO_MANY_FROM_ADDRESS("over the per-address connection limit", true),
        HEAD_BUDGET("over the partial-request memory budget", true),
        BODY_BUDGET("over the request-body memory budget", true),
        SLOW_HEAD("request head too slow", true),
        SLOW_BODY("request body too slow", true),
        RESET("reset or broken by the peer", false),
        TLS("TLS handshake or record failed", false);

        final String text;
        final boolean refusal;

        Kind(String text, boolean refusal) {
            this.text = text;
            this.refusal = refusal;
        }
    }

    private final Map<Kind, AtomicLong> counts = new EnumMap<>(Kind.class);
    private final ConcurrentHashMap<InetAddress, AtomicLong> byAddress = new ConcurrentHashMap<>();
    private final AtomicLong sinceReport = new AtomicLong();
    private final Map<Kind, AtomicLong> totals = new EnumMap<>(Kind.class);

    public ConnectionProblems() {
        for (Kind k : Kind.values()) {
            counts.put(k, new AtomicLong());
            totals.put(k, new AtomicLong());
        }
    }

    void count(Kind kind, InetAddress peer) {
        counts.get(kind).incrementAndGet();
        totals.get(kind).incrementAndGet();
        if (peer != null && (byAddress.size() < MAX_ADDRESSES || byAddress.containsKey(peer))) {
            byAddress.computeIfAbsent(peer, a -> new AtomicLong()).incrementAndGet();
        }
        if (sinceReport.getAndIncrement() == 0) {
            LOG.warn("connection {}{}; counted and summarized every {} s while it lasts", kind.refusal ? "refused: " : "error: ",
                    kind.text + (peer != null ? " (" + peer.getHostAddress() + ")" : ""), REPORT_MILLIS / 1000);
        }
    }

    /** Since the server started, for tests and diagnostics. */
    long total(Kind kind) {
        return totals.get(kind).get();
    }

    /** Logs what was counted since the last report, if anything, and starts a new interval. */
    public void report() {
        if (sinceReport.getAndSet(0) == 0) {
            return;
        }
        StringJoiner refused = new StringJoiner(", ");
        StringJoiner errors = new StringJoiner(", ");
        long refusedTotal = 0;
        long errorTotal = 0;
        for (Kind k : Kind.values()) {
            long n = counts.get(k).getAndSet(0);
            if (n == 0) {
                continue;
            }
            if (k.refusal) {
                refused.add(n + " " + k.text);
                refusedTotal += n;
            } else {
                errors.add(n + " " + k.text);
                errorTotal += n;
            }
        }
        InetAddress busiest = null;
        long most = 0;
        for (Map.Entry<InetAddress, AtomicLong> e : byAddress.entrySet()) {
            if (e.getValue().get() > most) {
                most = e.getValue().get();
                busiest = e.getKey();
            }
        }
        byAddress.clear();
        StringBuilder line = new StringBuilder("connections in the last ").append(REPORT_MILLIS / 1000).append(" s:");
        if (refusedTotal > 0) {
            line.append(' ').append(refusedTotal).append(" refused (").append(refused).append(')');
        }
        if (errorTotal > 0) {
            line.append(refusedTotal > 0 ? ";" : "").append(' ').append(errorTotal).append(" failed (").append(errors).append(')');
        }
        if (busiest != null) {
            line.append("; most from ").append(busiest.getHostAddress()).append(" (").append(most).append(')');
        }
        if (refusedTotal > 0) {
            LOG.warn(line.toString());
        } else {
            LOG.info(line.toString());
        }
    }
}
