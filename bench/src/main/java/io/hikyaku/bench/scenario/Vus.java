package io.hikyaku.bench.scenario;

import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsHttpClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Helpers to open connections for virtual users and wait for them, always with a time bound. */
final class Vus {
    private Vus() {
    }

    /** Opens n connections, at most 256 handshakes at a time so a listen backlog is not overrun. */
    static List<SqsConnection> connect(SqsHttpClient client, int n) throws Exception {
        List<SqsConnection> out = new ArrayList<>(n);
        for (int i = 0; i < n; i += 256) {
            List<CompletableFuture<SqsConnection>> chunk = new ArrayList<>();
            for (int j = i; j < Math.min(n, i + 256); j++) {
                chunk.add(client.connect());
            }
            for (CompletableFuture<SqsConnection> f : chunk) {
                out.add(f.get(10, TimeUnit.SECONDS));
            }
        }
        return out;
    }

    /** Waits for all futures, up to the timeout; returns false if some did not finish. */
    static boolean await(List<CompletableFuture<Void>> futures, long timeoutMillis) {
        try {
            CompletableFuture.allOf(futures.toArray(new CompletableFuture[0])).get(timeoutMillis,
                    TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    static void closeAll(List<SqsConnection> conns) {
        conns.forEach(SqsConnection::close);
    }

    /** Sleeps in small steps until the condition holds or the time is up. */
    static boolean waitUntil(java.util.function.BooleanSupplier condition, long timeoutMillis)
            throws InterruptedException {
        long end = System.nanoTime() + timeoutMillis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
