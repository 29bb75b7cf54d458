package io.hikyaku.bench.scenario;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Per-message timestamps of a cycle run (--trace), for finding where a latency tail comes from.
 * Times are System.nanoTime(), which on Linux is CLOCK_MONOTONIC: the same clock as
 * {@code perf record -k mono}, so a slow message can be lined up with the server's threads and
 * syscalls. The header line maps it to wall-clock time (for GC logs). Messages past
 * {@link #CAPACITY} are not traced.
 */
final class MessageTrace {
    static final int CAPACITY = 1 << 20;

    private final AtomicLongArray sent = new AtomicLongArray(CAPACITY);
    private final AtomicLongArray acked = new AtomicLongArray(CAPACITY);
    private final AtomicLongArray polled = new AtomicLongArray(CAPACITY);
    private final AtomicLongArray received = new AtomicLongArray(CAPACITY);

    /** The send carrying message {@code seq} was acknowledged at {@code ackNanos}. */
    void acked(long seq, long ackNanos) {
        if (seq >= 0 && seq < CAPACITY) {
            acked.set((int) seq, ackNanos);
        }
    }

    /** Message {@code seq}, stamped {@code sentNanos}, came back from a receive started at {@code polledNanos}. */
    void received(long seq, long sentNanos, long polledNanos, long receivedNanos) {
        if (seq >= 0 && seq < CAPACITY) {
            sent.set((int) seq, sentNanos);
            polled.set((int) seq, polledNanos);
            received.set((int) seq, receivedNanos);
        }
    }

    /** One line per received message: seq sent acked polled received (0 when not seen). */
    void write(Path file) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
            w.println("# seq sent_ns acked_ns poll_started_ns received_ns; clock: nano " + System.nanoTime()
                    + " = wall_micros " + System.currentTimeMillis() * 1000);
            for (int i = 0; i < CAPACITY; i++) {
                if (received.get(i) != 0) {
                    w.println(i + " " + sent.get(i) + " " + acked.get(i) + " " + polled.get(i) + " " + received.get(i));
                }
            }
        }
    }
}
