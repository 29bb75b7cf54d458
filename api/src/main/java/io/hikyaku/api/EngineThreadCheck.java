package io.hikyaku.api;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the times a thread other than a shard's applier reached its engine (a bug: the engine is
 * not thread-safe and has no lock). The access is refused as well; tests of the real server assert
 * the count stays 0 while every kind of reader and writer runs at once.
 */
public final class EngineThreadCheck {

    private static final AtomicLong VIOLATIONS = new AtomicLong();

    private EngineThreadCheck() {}

    /** Accesses refused so far in this process. */
    public static long violations() {
        return VIOLATIONS.get();
    }

    static IllegalStateException violation(Thread thread) {
        VIOLATIONS.incrementAndGet();
        return new IllegalStateException("the engine was reached from thread " + thread.getName()
                + ", not its shard's applier");
    }
}
