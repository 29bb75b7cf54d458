package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.Keyspace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-queue index window (ENGINE.md "Memory"): past it, sends spill to the store even while the
 * budget has room, the window is refilled as the head drains, and a start-up reads each queue's
 * head only, counting the rest of its backlog later in chunks.
 */
class IndexWindowTest {

    private static final int WINDOW = 50;
    private static final long BUDGET = 1_000_000;

    private final DiskLikeStore disk = new DiskLikeStore();
    private final EngineFixture f = new EngineFixture();

    IndexWindowTest() {
        f.engine = engine();
    }

    private QueueEngine engine() {
        return new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET, WINDOW);
    }

    /** Drains {@code q}, checking the window holds after every round. */
    private List<String> drain(QueueRef q) {
        return f.drain(q, () -> assertThat(f.engine.queues.require(q).visible).isLessThanOrEqualTo(WINDOW));
    }

    /** Sends m0..m(n-1) in batches of ten ({@code n} a multiple of ten). */
    private void sendInBatches(QueueRef q, int n) {
        List<SendMessage> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(new SendMessage("m" + i, null, null, null, null, null, "s", f.nextId()));
            if (batch.size() == 10) {
                f.engine.apply(new Command.SendMessageBatch(q, batch, f.now)).durable();
                batch.clear();
            }
        }
    }

    private long total(QueueRef q) {
        QueueCounts c = f.counts(q);
        return c.visible() + c.notVisible() + c.delayed();
    }

    @Test
    void sendsPastTheWindowSpillWhileTheBudgetHasRoomAndComeBackInOrder() {
        QueueRef q = f.create("q");
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sent.add("m" + i);
            f.send(q, "m" + i);
        }
        assertThat(f.engine.indexedMessages()).isEqualTo(WINDOW);
        assertThat(f.engine.spilledMessages()).isEqualTo(250);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(300, 0, 0));
        assertThat(drain(q)).isEqualTo(sent);
        assertThat(f.engine.spilledMessages()).isZero();
        assertThat(f.engine.indexedMessages()).isZero();
        assertThat(disk.count(Keyspace.MESSAGES)).isZero();
    }

    @Test
    void theWindowIsALoadParameterAReloadWithAnotherOneIndexesThatMuch() {
        QueueRef q = f.create("q");
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sent.add("m" + i);
            f.send(q, "m" + i);
        }
        assertThat(f.engine.indexWindow()).isEqualTo(WINDOW);
        // the public load with a window (what the server's --index-window and a journal replay use)
        f.engine = new QueueEngine(disk, "us-east-1", f.now, BUDGET, 2 * WINDOW);
        assertThat(f.engine.indexWindow()).isEqualTo(2 * WINDOW);
        assertThat(f.engine.indexedMessages()).as("the head, up to the new window").isEqualTo(2 * WINDOW);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(300, 0, 0));
        List<String> got = new ArrayList<>();
        for (int round = 0; round < 100_000 && got.size() < sent.size(); round++) {
            f.engine.tick(f.now);
            for (ReceivedMessage m : f.receive(q, 10)) {
                got.add(m.body());
                f.delete(q, m);
            }
            assertThat(f.engine.queues.require(q).visible).isLessThanOrEqualTo(2 * WINDOW);
        }
        assertThat(got).isEqualTo(sent);
        assertThat(new QueueEngine(disk, "us-east-1", f.now, BUDGET).indexWindow())
                .as("without one: the default").isEqualTo(QueueEngine.DEFAULT_INDEX_WINDOW);
    }

    @Test
    void messagesInFlightDoNotTakeTheWindowSoTheNextCommandPagesMoreIn() {
        QueueRef q = f.create("q");
        for (int i = 0; i < 200; i++) {
            f.send(q, "m" + i);
        }
        List<ReceivedMessage> held = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            held.addAll(f.receive(q, 10, 300));
        }
        assertThat(held).hasSize(WINDOW);
        List<ReceivedMessage> next = f.receive(q, 10, 300); // its touch refilled the window first
        assertThat(f.bodies(next)).containsExactly("m50", "m51", "m52", "m53", "m54", "m55", "m56", "m57", "m58", "m59");
        QueueState s = f.engine.queues.require(q);
        assertThat(s.inflight).isEqualTo(60);
        assertThat(s.visible).isLessThanOrEqualTo(WINDOW);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(140, 60, 0));
    }

    @Test
    void delayedMessagesDoNotTakeTheWindowSoVisibleOnesBehindThemAreServed() {
        QueueRef q = f.create("q");
        for (int i = 0; i < 2 * WINDOW; i++) {
            f.engine.apply(new Command.SendMessage(q, new SendMessage("late" + i, null, null, 600, null, null, "s", f.nextId()), f.now)).durable();
        }
        for (int i = 0; i < 20; i++) {
            f.send(q, "now" + i);
        }
        assertThat(f.engine.spilledMessages()).isZero();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(20, 0, 2 * WINDOW));
        assertThat(f.bodies(f.receive(q, 10))).hasSize(10).allMatch(b -> b.startsWith("now"));
    }

    @Test
    void fifoGroupsKeepTheirOrderAcrossTheWindowBoundary() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        for (int i = 0; i < 400; i++) {
            f.sendFifo(q, "m" + i, "g" + (i % 7), null);
        }
        assertThat(f.engine.spilledMessages()).isEqualTo(400 - WINDOW);
        Map<String, List<Integer>> byGroup = new HashMap<>();
        List<String> drained = drain(q);
        assertThat(drained).hasSize(400);
        for (String body : drained) {
            int n = Integer.parseInt(body.substring(1));
            byGroup.computeIfAbsent("g" + (n % 7), g -> new ArrayList<>()).add(n);
        }
        assertThat(byGroup).hasSize(7);
        byGroup.values().forEach(order -> assertThat(order).isSorted());
    }

    @Test
    void aStoreThatKeepsNothingHasNoWindow() {
        EngineFixture m = new EngineFixture();
        m.engine = new QueueEngine(m.store, "us-east-1", QueueState.INFLIGHT_LIMIT, m.now, BUDGET, WINDOW);
        QueueRef q = m.create("q");
        for (int i = 0; i < 300; i++) {
            m.send(q, "m" + i);
        }
        assertThat(m.engine.indexedMessages()).isEqualTo(300);
        assertThat(m.engine.spilledMessages()).isZero();
    }

    @Test
    void aStartUpReadsTheHeadOnlyAndCountsTheBacklogInChunksThroughTheTick() {
        int stored = 3 * Tails.COUNT_PER_TICK + 1000 - (3 * Tails.COUNT_PER_TICK + 1000) % 10; // whole batches
        QueueRef q = f.create("q");
        sendInBatches(q, stored);
        disk.messageKeysVisited = 0;
        f.engine = engine();

        // The head (the window and one key past it), the queue's first key (leftovers of a purge?)
        // and the load's chunk of counting (and the key it stops at): not the backlog.
        assertThat(disk.messageKeysVisited).isLessThanOrEqualTo(WINDOW + 1 + 1 + Loader.LOAD_COUNT + 1);
        assertThat(f.engine.indexedMessages()).isEqualTo(WINDOW);
        assertThat(f.engine.spilledMessages()).isEqualTo(Loader.LOAD_COUNT);
        assertThat(f.engine.nextDeadline()).isZero(); // counting goes on at once
        assertThat(total(q)).isEqualTo(stored); // the estimate of the part not counted: exact without gaps in seqs

        int ticks = 0;
        while (f.engine.nextDeadline() == 0) {
            f.engine.tick(f.now);
            ticks++;
        }
        assertThat(ticks).isBetween(3, 4);
        assertThat(f.engine.spilledMessages()).isEqualTo(stored - WINDOW);
        assertThat(total(q)).isEqualTo(stored);
        assertThat(drain(q)).hasSize(stored).startsWith("m0", "m1").endsWith("m" + (stored - 1));
    }

    @Test
    void aStartUpReadsOnePageOfAWideWindowAndTheTicksFillTheRestWhileTheQueueServes() {
        int window = 4 * Loader.LOAD_HEAD;
        int stored = 2 * window - (2 * window) % 10; // whole batches
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET, window);
        QueueRef q = f.create("q");
        sendInBatches(q, stored);
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET, window);

        assertThat(f.engine.indexedMessages()).isEqualTo(Loader.LOAD_HEAD); // one page, not the window
        assertThat(total(q)).isEqualTo(stored);
        assertThat(f.engine.nextDeadline()).isZero(); // the rest of the window pages in at once
        List<ReceivedMessage> first = f.receive(q, 10); // served before any tick: the oldest messages
        assertThat(first).extracting(ReceivedMessage::body).containsExactly(
                "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
        first.forEach(m -> f.delete(q, m));

        int ticks = 0;
        while (f.engine.nextDeadline() == 0 && ticks < 100) {
            f.engine.tick(f.now);
            ticks++;
        }
        assertThat(f.engine.indexedMessages()).isEqualTo(window); // the window is full again
        assertThat(f.engine.spilledMessages()).isEqualTo(stored - 10 - window);
        List<String> rest = new ArrayList<>();
        for (int round = 0; round < 10 * stored && rest.size() < stored - 10; round++) {
            f.engine.tick(f.now);
            for (ReceivedMessage m : f.receive(q, 10)) {
                rest.add(m.body());
                f.delete(q, m);
            }
            assertThat(f.engine.indexedMessages()).isLessThanOrEqualTo(window);
        }
        assertThat(rest).hasSize(stored - 10).startsWith("m10", "m11").endsWith("m" + (stored - 1));
        for (int i = 0; i < rest.size(); i++) {
            assertThat(rest.get(i)).isEqualTo("m" + (i + 10)); // oldest first throughout
        }
    }

    @Test
    void countsConvergeToTheExactNumberWhenTheBacklogHasGaps() {
        int stored = 2 * Tails.COUNT_PER_TICK;
        QueueRef q = f.create("q");
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET, Long.MAX_VALUE);
        for (int i = 0; i < stored; i++) {
            f.send(q, "m" + i);
        }
        // Received before the restart, then every other one of the last 3,000 deleted: gaps in the tail's seqs.
        List<ReceivedMessage> got = new ArrayList<>();
        while (got.size() < stored) {
            got.addAll(f.receive(q, 10, 600));
        }
        int deleted = 0;
        for (int i = stored - 3000; i < stored; i += 2) {
            f.delete(q, got.get(i));
            deleted++;
        }
        f.engine = engine();
        while (f.engine.nextDeadline() == 0) {
            f.engine.tick(f.now);
        }
        assertThat(total(q)).isEqualTo(stored - deleted);
        // Their handles still work once the window reached them: delete the rest, nothing is left.
        f.advanceSeconds(1);
        for (int i = 0; i < stored; i++) {
            if (i < stored - 3000 || (i - (stored - 3000)) % 2 == 1) {
                f.delete(q, got.get(i));
            }
            if (i % 1000 == 0) {
                f.engine.tick(f.now);
            }
        }
        f.engine.tick(f.now);
        assertThat(total(q)).isZero();
        assertThat(f.engine.spilledMessages()).isZero();
        assertThat(disk.count(Keyspace.MESSAGES)).isZero();
    }

    @Test
    void aPurgeWhileCountingForgetsTheUncountedPart() {
        QueueRef q = f.create("q");
        int stored = Tails.COUNT_PER_TICK * 2;
        for (int i = 0; i < stored; i++) {
            f.send(q, "m" + i);
        }
        f.engine = engine();
        assertThat(total(q)).isEqualTo(stored);
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(total(q)).isZero();
        assertThat(f.engine.spilledMessages()).isZero();
        while (f.engine.nextDeadline() == 0) {
            f.engine.tick(f.now);
        }
        assertThat(total(q)).isZero();
        f.send(q, "after");
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("after");
    }
}
