package io.hikyaku.bench.scenario;

import io.hikyaku.bench.check.CorrectnessChecker;
import io.hikyaku.bench.stats.LatencyRecorder;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Shared, thread-safe state of one run: the stop switches the virtual users poll, the
 * counters and histograms they fill, and the correctness checker.
 */
public final class RunState {
    public final CorrectnessChecker checker;
    /** Latency of send calls. */
    public final LatencyRecorder sendLatency = new LatencyRecorder();
    /** End-to-end latency (body timestamp to receipt), or receive call time when recordEndToEnd is off. */
    public final LatencyRecorder receiveLatency = new LatencyRecorder();
    /** Round trips of ReceiveMessage calls that returned messages, and of DeleteMessageBatch calls (in the window). */
    public final LatencyRecorder receiveCallLatency = new LatencyRecorder();
    public final LatencyRecorder deleteCallLatency = new LatencyRecorder();
    public final AtomicLong nextSeq = new AtomicLong();
    public final AtomicLong errors = new AtomicLong();
    /** Messages acknowledged as sent, and sends calls, while the measuring window is open. */
    public final AtomicLong windowSent = new AtomicLong();
    public final AtomicLong windowSendRequests = new AtomicLong();
    /** ReceiveMessage calls answered while the window is open, and the messages they carried. */
    public final AtomicLong windowReceives = new AtomicLong();
    public final AtomicLong windowReceived = new AtomicLong();
    /** Messages deleted while the measuring window is open. */
    public final AtomicLong windowDeleted = new AtomicLong();
    /** For count-limited producers (backlog preload): messages still to send. */
    public final AtomicLong remaining = new AtomicLong(Long.MAX_VALUE);
    /** Producers pause while more than this many sent messages are not yet received (steady state). */
    public volatile long maxBacklog = Long.MAX_VALUE;
    public volatile boolean producing = true;
    public volatile boolean consuming = true;
    public volatile boolean windowOpen = true;
    /** Which latency the consumers record: end-to-end from the body timestamp, else none. */
    public volatile boolean recordEndToEnd = true;
    /** Per-message timestamps when --trace asks for them, else null. */
    volatile MessageTrace trace;
    private volatile String firstError;

    public RunState(boolean checkOrder) {
        this.checker = new CorrectnessChecker(checkOrder);
    }

    /** Set before the tool closes its own connections on purpose: those failures are not errors. */
    public volatile boolean closing;

    public void error(Throwable t) {
        if (closing) {
            return;
        }
        errors.incrementAndGet();
        if (firstError == null) {
            firstError = String.valueOf(t);
        }
    }

    public String firstError() {
        return firstError;
    }
}
