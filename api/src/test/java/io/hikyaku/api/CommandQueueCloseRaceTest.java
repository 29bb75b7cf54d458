package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.protocol.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A call that races the applier's close gets an answer: either it is refused at once (the service
 * answers 503 then) or it runs. None is accepted and then left behind the stop, unanswered.
 */
class CommandQueueCloseRaceTest {

    @Test
    void everyAcceptedCommandRunsAndEveryOtherIsRefused() throws Exception {
        for (int round = 0; round < 200; round++) {
            CommandQueue queue = new CommandQueue(CommandQueue.CAPACITY, "race-" + round);
            queue.start();
            AtomicLong accepted = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            AtomicLong ran = new AtomicLong();
            AtomicInteger callsUnanswered = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread caller = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 2_000; i++) {
                        try {
                            queue.submit(ran::incrementAndGet);
                            accepted.incrementAndGet();
                        } catch (ApiException e) {
                            refused.incrementAndGet();
                        }
                        try {
                            queue.call(() -> null).get(10, TimeUnit.SECONDS); // completes, or fails at once
                        } catch (java.util.concurrent.ExecutionException e) {
                            // refused: the applier has stopped
                        } catch (Exception e) {
                            callsUnanswered.incrementAndGet();
                        }
                    }
                });
                caller.start();
                callers.add(caller);
            }
            go.countDown();
            Thread.sleep(round % 3); // close at different points of the burst
            queue.close(() -> { });
            for (Thread caller : callers) {
                caller.join(30_000);
            }
            assertThat(ran.get()).as("round %d: accepted commands that ran", round).isEqualTo(accepted.get());
            assertThat(accepted.get() + refused.get()).isEqualTo(3 * 2_000);
            assertThat(callsUnanswered.get()).isZero();
        }
    }
}
