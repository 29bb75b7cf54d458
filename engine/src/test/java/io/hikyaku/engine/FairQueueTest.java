package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FairQueueTest {

    private final EngineFixture f = new EngineFixture();

    private void send(QueueRef q, String body, String tenant) {
        f.engine.apply(new Command.SendMessage(q, new SendMessage(body, null, null, null, tenant, null, "s", f.nextId()), f.now)).durable();
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
        for (int i = 0; i < 300; i++) {
            send(q, "u" + i, null);
        }
        for (int i = 0; i < 30; i++) {
            send(q, "t-" + i, "t");
        }
        for (int i = 0; i < 33; i++) {
            f.receive(q, 10, 3600);
        }
        // 330 in flight, "t" holds 30 of them (9.1%): it never met the condition, so it is quiet
        assertThat(noisy(q, "t")).isFalse();
        send(q, "t-late", "t");
        send(q, "other", "o");
        assertThat(f.bodies(f.receive(q, 2))).containsExactly("t-late", "other");
    }

    private FairDelivery fair(QueueRef q) {
        return f.engine.queues.find(q).fair();
    }

    private boolean noisy(QueueRef q, String tenant) {
        return fair(q).isNoisy(tenant, f.now);
    }

    /** "big" gets 30 of its 100 messages in flight (noisy), then 25 of them deleted: 5 in flight, below the bar. */
    private List<ReceivedMessage> noisyThenBelowTheBar(QueueRef q) {
        for (int i = 0; i < 100; i++) {
            send(q, "big" + i, "big");
        }
        List<ReceivedMessage> inflight = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inflight.addAll(f.receive(q, 10, 3600));
        }
        assertThat(noisy(q, "big")).isTrue();
        for (int i = 0; i < 25; i++) {
            f.delete(q, inflight.remove(0));
        }
        return inflight;
    }

    @Test
    void aNoisyTenantStaysNoisyBelowTheBarWhileItKeepsSending() {
        QueueRef q = f.create("fair");
        noisyThenBelowTheBar(q);
        f.advanceSeconds(120);
        send(q, "big-more", "big"); // still sending: the five-minute window starts again
        send(q, "small0", "small");
        send(q, "small1", "small");
        f.advanceSeconds(240); // 6 minutes after it became noisy, 4 after its last send
        assertThat(noisy(q, "big")).isTrue();
        // 5 of 35 in flight is far below the condition, yet "big" still yields to the newer quiet tenant
        assertThat(f.bodies(f.receive(q, 3))).containsExactly("small0", "small1", "big30");
    }

    @Test
    void aNoisyTenantTurnsQuietAfterFiveMinutesWithoutSends() {
        QueueRef q = f.create("fair");
        noisyThenBelowTheBar(q);
        send(q, "small0", "small");
        f.advance(5 * 60_000L - 1);
        assertThat(noisy(q, "big")).isTrue();
        f.advance(1);
        assertThat(noisy(q, "big")).isFalse();
        // quiet again: plain oldest first, so its older messages go before "small0"
        assertThat(f.bodies(f.receive(q, 2))).containsExactly("big30", "big31");
    }

    @Test
    void aSendAfterFiveSilentMinutesDoesNotRevive() {
        QueueRef q = f.create("fair");
        noisyThenBelowTheBar(q);
        f.advanceSeconds(6 * 60);
        send(q, "big-late", "big"); // no receive ran in between: the send itself finds it quiet
        assertThat(noisy(q, "big")).isFalse();
    }

    @Test
    void aNoisyTenantThatStillMeetsTheConditionStaysNoisyWithoutSends() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 40; i++) {
            send(q, "big" + i, "big");
        }
        for (int i = 0; i < 3; i++) {
            f.receive(q, 10, 3600);
        }
        f.advanceSeconds(600);
        assertThat(noisy(q, "big")).isTrue(); // 30 of 30 in flight
        send(q, "small0", "small");
        assertThat(f.bodies(f.receive(q, 2))).containsExactly("small0", "big30");
    }

    @Test
    void aSendWhileNoisyByTheConditionMakesItSticky() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 40; i++) {
            send(q, "big" + i, "big");
        }
        List<ReceivedMessage> inflight = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inflight.addAll(f.receive(q, 10, 3600));
        }
        f.advanceSeconds(600); // silent for ten minutes, noisy only by the condition now
        assertThat(noisy(q, "big")).isTrue();
        send(q, "big-again", "big"); // it sends while noisy
        for (int i = 0; i < 20; i++) {
            f.delete(q, inflight.remove(0)); // 10 in flight: the condition no longer holds
        }
        assertThat(noisy(q, "big")).isTrue();
        f.advanceSeconds(300);
        assertThat(noisy(q, "big")).isFalse();
    }

    @Test
    void aNoisyTenantTurnsQuietWhenItsBacklogDrains() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 30; i++) {
            send(q, "big" + i, "big");
        }
        List<ReceivedMessage> inflight = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inflight.addAll(f.receive(q, 10, 3600));
        }
        assertThat(noisy(q, "big")).isTrue();
        // a delayed message is backlog too: deleting the 30 in flight does not drain the tenant
        f.engine.apply(new Command.SendMessage(q, new SendMessage("big-delayed", null, null, 600, "big", null, "s", f.nextId()), f.now)).durable();
        for (ReceivedMessage m : inflight) {
            f.delete(q, m);
        }
        assertThat(noisy(q, "big")).isTrue();
        f.advanceSeconds(600);
        List<ReceivedMessage> last = f.receive(q, 1, 3600);
        assertThat(f.bodies(last)).containsExactly("big-delayed");
        f.delete(q, last.get(0));
        // drained (nothing visible, in flight or delayed): quiet at once, although it sent within five minutes
        assertThat(noisy(q, "big")).isFalse();
        send(q, "big-new", "big");
        send(q, "small0", "small");
        assertThat(f.bodies(f.receive(q, 2))).containsExactly("big-new", "small0");
    }

    @Test
    void amongStickyNoisyTenantsTheOneWithFewestInFlightGoesFirst() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 60; i++) {
            send(q, "a" + i, "A");
        }
        for (int i = 0; i < 60; i++) {
            send(q, "b" + i, "B");
        }
        List<ReceivedMessage> a = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            a.addAll(f.receive(q, 10, 3600)); // A: 30 of 30 in flight, noisy
        }
        List<ReceivedMessage> b = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            b.addAll(f.receive(q, 10, 3600)); // quiet B first, until it holds 30 of 60: noisy too
        }
        assertThat(f.bodies(b)).allMatch(x -> x.startsWith("b"));
        for (int i = 0; i < 20; i++) {
            f.delete(q, a.remove(0)); // A: 10 in flight
        }
        for (int i = 0; i < 28; i++) {
            f.delete(q, b.remove(0)); // B: 2 in flight
        }
        // both below the bar, both still noisy (sticky, recent sends); B has fewer in flight, so it goes
        // first although A's head is older; then A once B has caught up (ties: oldest head)
        assertThat(noisy(q, "A")).isTrue();
        assertThat(noisy(q, "B")).isTrue();
        send(q, "c0", "C");
        List<String> next = f.bodies(f.receive(q, 10, 3600));
        assertThat(next).containsExactly("c0", "b30", "b31", "b32", "b33", "b34", "b35", "b36", "b37", "a30");
    }

    @Test
    void afterARestartNoisinessIsDerivedFromTheRebuiltState() {
        QueueRef q = f.create("fair");
        for (int i = 0; i < 40; i++) {
            send(q, "big" + i, "big");
        }
        for (int i = 0; i < 40; i++) {
            send(q, "mid" + i, "mid");
        }
        List<ReceivedMessage> inflight = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inflight.addAll(f.receive(q, 10, 3600)); // big: 30 in flight, noisy
        }
        List<ReceivedMessage> mid = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            mid.addAll(f.receive(q, 10, 3600)); // mid: 30 of 60, noisy
        }
        for (int i = 0; i < 25; i++) {
            f.delete(q, mid.remove(0)); // mid: 5 of 35 in flight, noisy only because sticky
        }
        assertThat(noisy(q, "big")).isTrue();
        assertThat(noisy(q, "mid")).isTrue();
        f.restart();
        // big meets the condition on the rebuilt state; mid's stickiness was not persisted
        assertThat(noisy(q, "big")).isTrue();
        assertThat(noisy(q, "mid")).isFalse();
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
