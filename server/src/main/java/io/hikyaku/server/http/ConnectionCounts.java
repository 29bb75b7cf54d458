package io.hikyaku.server.http;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Open connections, in total and per source address, admitted against {@link ConnectionLimits}. */
final class ConnectionCounts {

    private final int max;
    private final int maxPerAddress;
    private final AtomicInteger total = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> byAddress = new ConcurrentHashMap<>();

    ConnectionCounts(int max, int maxPerAddress) {
        this.max = max;
        this.maxPerAddress = maxPerAddress;
    }

    /** Counts the connection in, or says why it is refused (and counts nothing). */
    ConnectionProblems.Kind admit(InetAddress peer) {
        if (total.incrementAndGet() > max) {
            total.decrementAndGet();
            return ConnectionProblems.Kind.TOO_MANY_CONNECTIONS;
        }
        if (peer == null) {
            return null;
        }
        boolean[] over = new boolean[1];
        byAddress.compute(peer, (a, n) -> {
            int now = n == null ? 0 : n;
            if (now >= maxPerAddress) {
                over[0] = true;
                return n;
            }
            return now + 1;
        });
        if (over[0]) {
            total.decrementAndGet();
            return ConnectionProblems.Kind.TOO_MANY_FROM_ADDRESS;
        }
        return null;
    }

    void release(InetAddress peer) {
        total.decrementAndGet();
        if (peer != null) {
            byAddress.computeIfPresent(peer, (a, n) -> n <= 1 ? null : n - 1);
        }
    }

    int open() {
        return total.get();
    }
}
