package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.testsupport.MutableClock;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TimerLoopTest {

    @Test
    void onTheSystemClockAnIdleLoopSleepsUntilWoken() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        TimerLoop loop = new TimerLoop(Clock.systemUTC(), () -> {
            rounds.incrementAndGet();
            return Long.MAX_VALUE;
        });
        loop.start();
        try {
            Thread.sleep(300);
            assertThat(rounds.get()).isEqualTo(1); // the first round only: no 20 ms polling
            loop.nudge();
            waitFor(() -> rounds.get() == 2);
        } finally {
            loop.stop();
        }
    }

    @Test
    void anEarlierDeadlineWakesTheSleepingLoopAndALaterOneDoesNot() throws Exception {
        AtomicLong next = new AtomicLong(Long.MAX_VALUE);
        CountDownLatch firstRound = new CountDownLatch(1);
        AtomicInteger rounds = new AtomicInteger();
        TimerLoop loop = new TimerLoop(Clock.systemUTC(), () -> {
            rounds.incrementAndGet();
            firstRound.countDown();
            return next.get();
        });
        long soon = System.currentTimeMillis() + 60_000;
        next.set(soon);
        loop.start();
        try {
            assertThat(firstRound.await(2, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(50); // the loop is now asleep until `soon` (capped at 1 s)
            loop.deadlineAt(soon + 1000); // later than planned: no wake-up
            loop.deadlineAt(Long.MAX_VALUE);
            Thread.sleep(100);
            assertThat(rounds.get()).isEqualTo(1);
            next.set(Long.MAX_VALUE);
            loop.deadlineAt(System.currentTimeMillis() + 10); // earlier: the loop re-plans now
            waitFor(() -> rounds.get() == 2);
        } finally {
            loop.stop();
        }
    }

    @Test
    void aFakeClockIsPolledSoMovingItIsNoticed() throws Exception {
        MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_000));
        AtomicInteger due = new AtomicInteger();
        TimerLoop loop = new TimerLoop(clock, () -> {
            if (clock.millis() >= 5_000) {
                due.incrementAndGet();
                return Long.MAX_VALUE;
            }
            return 5_000;
        });
        loop.start();
        try {
            clock.advance(java.time.Duration.ofSeconds(4));
            waitFor(() -> due.get() >= 1);
        } finally {
            loop.stop();
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 2 s").isLessThan(end);
            Thread.sleep(5);
        }
    }
}
