package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.QueueRef;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LongPollsTest {

    private static final QueueRef Q = new QueueRef("0", "q");

    private static Waiter waiter(QueueRef q, long deadline) {
        return new Waiter(q, new ReceiveCall(1, null, null, null, 0L), deadline, new CompletableFuture<>());
    }

    @Test
    void expiresByDeadlineAndSkipsAnsweredOnes() {
        LongPolls polls = new LongPolls();
        Waiter a = waiter(Q, 100);
        Waiter b = waiter(Q, 200);
        Waiter c = waiter(new QueueRef("0", "other"), 150);
        polls.park(a);
        polls.park(b);
        polls.park(c);
        assertThat(polls.nextDeadline()).isEqualTo(100);
        a.done = true; // answered by a message
        assertThat(polls.nextDeadline()).isEqualTo(150);
        assertThat(polls.expire(160, 100)).containsExactly(c);
        assertThat(polls.size()).isEqualTo(1);
        assertThat(polls.of(Q).peekFirst()).isSameAs(a); // FIFO order kept; served ones are polled by wake
        assertThat(polls.removeQueue(Q)).containsExactly(b);
        assertThat(polls.hasWaiters(Q)).isFalse();
        assertThat(polls.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void thousandsOfWaitersAreCheap() {
        LongPolls polls = new LongPolls();
        for (int i = 0; i < 10_000; i++) {
            polls.park(waiter(new QueueRef("0", "q" + (i % 100)), 1000 + i));
        }
        assertThat(polls.size()).isEqualTo(10_000);
        assertThat(polls.expire(1000 + 4_999, Integer.MAX_VALUE)).hasSize(5_000);
        assertThat(polls.removeAll()).hasSize(5_000);
    }

    @Test
    void aBurstOfExpiriesIsHandedOutInChunksEarliestFirst() {
        LongPolls polls = new LongPolls();
        for (int i = 0; i < 100; i++) {
            polls.park(waiter(Q, 1000 + (i % 10)));
        }
        java.util.List<Waiter> first = polls.expire(2000, 32);
        assertThat(first).hasSize(32);
        assertThat(first).allMatch(w -> w.deadline <= 1003);
        assertThat(polls.nextDeadline()).as("the rest are still due").isLessThanOrEqualTo(2000);
        assertThat(polls.expire(2000, 32)).hasSize(32);
        assertThat(polls.expire(2000, 32)).hasSize(32);
        assertThat(polls.expire(2000, 32)).hasSize(4);
        assertThat(polls.expire(2000, 32)).isEmpty();
        assertThat(polls.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }
}
