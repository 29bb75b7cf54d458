package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FairQueueTest {

    private final EngineFixture f = new EngineFixture();

    private void send(QueueRef q, String body, String tenant) {
        f.engine.sendMessage(q, new SendMessage(body, null, null, null, tenant, null, "s", f.nextId()), f.now);
    }

    @Test
    void quietTenantsOvertakeANoisyOne() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 100; i++) {
            send(q, "noisy" + i, "big");
        }
        for (int i = 0; i < 5; i++) {
            send(q, "quiet" + i, "small");
        }
        for (int i = 0; i < 3; i++) {
            assertThat(f.bodies(f.receive(q, 10))).allMatch(b -> b.startsWith("noisy"));
        }
        // "big" now holds 30 in flight, all of them: noisy. "small" goes first although its messages are newer.
        List<String> next = f.bodies(f.receive(q, 10));
        assertThat(next).containsExactly("quiet0", "quiet1", "quiet2", "quiet3", "quiet4",
                "noisy30", "noisy31", "noisy32", "noisy33", "noisy34");
    }

    @Test
    void ungroupedMessagesAreEachTheirOwnQuietTenant() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 40; i++) {
            send(q, "noisy" + i, "big");
        }
        send(q, "loner1", null);
        send(q, "loner2", null);
        for (int i = 0; i < 3; i++) {
            f.receive(q, 10);
        }
        assertThat(f.bodies(f.receive(q, 3))).containsExactly("loner1", "loner2", "noisy30");
    }

    @Test
    void tenantIsNotNoisyBelowTenPercentOfInFlight() {
        QueueRef q = f.create("fair");
        for (int t = 0; t < 11; t++) {
            for (int i = 0; i < 30; i++) {
                send(q, "t" + t + "-" + i, "t" + t);
            }
        }
        // 330 in flight, each tenant 30 (9.1%): none is noisy, so plain oldest-first order holds
        for (int i = 0; i < 33; i++) {
            f.receive(q, 10);
        }
        send(q, "late", "t0");
        f.advanceSeconds(31);
        assertThat(f.bodies(f.receive(q, 1))).containsExactly("t0-0");
    }

    @Test
    void amongNoisyTenantsTheOneWithFewestInFlightGoesFirst() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 60; i++) {
            send(q, "a" + i, "A");
        }
        for (int i = 0; i < 60; i++) {
            send(q, "b" + i, "B");
        }
        for (int i = 0; i < 3; i++) {
            f.receive(q, 10); // 30 of A: A is noisy
        }
        for (int i = 0; i < 3; i++) {
            f.receive(q, 10); // B is quiet, so B goes first until it holds 30 too
        }
        // both noisy: the one with fewer in flight goes first (ties: oldest head)
        assertThat(f.bodies(f.receive(q, 4))).containsExactly("a30", "b30", "a31", "b31");
    }
}
