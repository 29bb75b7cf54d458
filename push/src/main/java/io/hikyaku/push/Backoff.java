package io.hikyaku.push;

/**
 * The pause after failed batches: 1 s after the first, doubling per further failure up to 30 s, on the
 * clock the caller passes in (so tests need no sleeps); a success ends it.
 */
final class Backoff {

    static final long FIRST_MILLIS = 1_000;
    static final long MAX_MILLIS = 30_000;

    private int streak;
    private long pauseUntil;

    /** Records a failure at {@code now}; returns the pause it causes. */
    synchronized long fail(long now) {
        streak++;
        long pause = Math.min(MAX_MILLIS, FIRST_MILLIS << Math.min(streak - 1, 15));
        pauseUntil = Math.max(pauseUntil, now + pause);
        return pause;
    }

    synchronized void reset() {
        streak = 0;
        pauseUntil = 0;
    }

    synchronized long remainingMillis(long now) {
        return Math.max(0, pauseUntil - now);
    }

    synchronized int streak() {
        return streak;
    }
}
