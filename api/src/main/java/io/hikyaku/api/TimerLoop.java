package io.hikyaku.api;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The one scheduler thread. Each round runs {@code round} (engine timers and long-poll deadlines),
 * which returns the next deadline; the thread then sleeps until it, but never more than
 * {@link #MAX_SLEEP_MS}, so that a test's fake clock being advanced is noticed within that time.
 */
final class TimerLoop {

    static final long MAX_SLEEP_MS = 20;

    private final Clock clock;
    private final LongSupplier round;
    private final Thread thread;
    private volatile boolean running = true;

    TimerLoop(Clock clock, LongSupplier round) {
        this.clock = clock;
        this.round = round;
        this.thread = new Thread(this::loop, "hikyaku-timers");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        while (running) {
            long next;
            try {
                next = round.getAsLong();
            } catch (RuntimeException e) {
                // A failing round (e.g. store trouble) must not stop timers for good.
                System.err.println("hikyaku-api: timer round failed: " + e);
                next = Long.MAX_VALUE;
            }
            long sleep = Math.max(1, Math.min(MAX_SLEEP_MS, saturatedMinus(next, clock.millis())));
            // parkNanos returns early on nudge() (a command made a timer due now) or on stop().
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(sleep));
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }

    private static long saturatedMinus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** Runs a round soon rather than at the next planned wake-up. Cheap; callable from any thread. */
    void nudge() {
        if (Thread.currentThread() != thread) { // a round never re-triggers itself
            LockSupport.unpark(thread);
        }
    }

    void stop() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
