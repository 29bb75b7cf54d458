package io.hikyaku.api;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A shard's scheduler thread (one per engine shard). Each round runs {@code round} (engine timers and long-poll deadlines),
 * which returns the next deadline; the thread then sleeps until it, or until {@link #deadlineAt}
 * reports an earlier one, or until {@link #nudge}. With nothing scheduled it sleeps until woken,
 * so an idle server has no periodic wake-ups.
 *
 * <p>On the system clock a sleep is capped at {@link #MAX_SLEEP_SYSTEM_MS}, bounding how late a
 * timer fires after the wall clock jumps forward. Any other clock may be moved at will (a test's
 * fake clock), so it is polled every {@link #MAX_SLEEP_FAKE_MS}.
 */
final class TimerLoop {

    static final long MAX_SLEEP_FAKE_MS = 20;
    static final long MAX_SLEEP_SYSTEM_MS = 1000;
    /** The planned wake-up while a round is computing it: anyone reporting a deadline nudges. */
    private static final long PLANNING = Long.MIN_VALUE;

    private final Clock clock;
    private final LongSupplier round;
    private final boolean systemClock;
    private final Thread thread;
    private volatile boolean running = true;
    /** Clock millis of the next planned round (Long.MAX_VALUE: none), or PLANNING. */
    private volatile long plannedWake = PLANNING;

    TimerLoop(Clock clock, LongSupplier round) {
        this(clock, round, "hikyaku-timers");
    }

    /** With the thread named {@code threadName} (one per engine shard). */
    TimerLoop(Clock clock, LongSupplier round, String threadName) {
        this.clock = clock;
        this.round = round;
        this.systemClock = clock.getClass() == Clock.systemUTC().getClass();
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    /** Starts the thread; again: nothing. */
    synchronized void start() {
        if (thread.getState() == Thread.State.NEW) {
            thread.start();
        }
    }

    private void loop() {
        while (running) {
            plannedWake = PLANNING;
            long next;
            try {
                next = round.getAsLong();
            } catch (RuntimeException e) {
                // A failing round (e.g. store trouble) must not stop timers for good.
                org.slf4j.LoggerFactory.getLogger(TimerLoop.class).warn("Timer round failed", e);
                next = clock.millis() + MAX_SLEEP_FAKE_MS;
            }
            plannedWake = next;
            long cap = systemClock ? MAX_SLEEP_SYSTEM_MS : MAX_SLEEP_FAKE_MS;
            long left = saturatedMinus(next, clock.millis());
            // parkNanos/park return early on nudge() (an earlier deadline, a due timer) or stop().
            if (left == Long.MAX_VALUE && systemClock) {
                LockSupport.park(this);
            } else {
                // At least 1 ms: a deadline that stays due (store trouble) must not spin the thread.
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(Math.max(1, Math.min(cap, left))));
            }
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }

    private static long saturatedMinus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? (a > b ? Long.MAX_VALUE : Long.MIN_VALUE) : r;
    }

    /**
     * Reports that something is due at {@code deadline} (clock millis); wakes the thread if that
     * is before its planned round. Cheap when it is not (one volatile read); callable from any thread.
     */
    void deadlineAt(long deadline) {
        if (deadline == Long.MAX_VALUE) {
            return;
        }
        long planned = plannedWake;
        if (planned == PLANNING || deadline < planned) {
            nudge();
        }
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
