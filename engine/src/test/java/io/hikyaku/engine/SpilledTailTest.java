package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.store.Keyspace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The index budget: messages past it spill to the store and are paged in, in order, as the head drains. */
class SpilledTailTest {

    private static final int BUDGET = 100;

    private final DiskLikeStore disk = new DiskLikeStore();
    private final EngineFixture f = EngineFixture.budgeted(disk, BUDGET);

    private void restart() {
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET);
    }

    /** Drains {@code q}, checking the budget holds after every round. */
    private List<String> drain(QueueRef q) {
        return f.drain(q, () -> assertThat(f.engine.indexedMessages()).isLessThanOrEqualTo(BUDGET));
    }

    @Test
    void sendsPastTheBudgetSpillAreCountedAndComeBackInOrder() {
        QueueRef q = f.create("q");
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sent.add("m" + i);
            f.send(q, "m" + i);
        }
        assertThat(f.engine.indexedMessages()).isEqualTo(BUDGET);
        assertThat(f.engine.spilledMessages()).isEqualTo(400);
        assertThat(disk.count(Keyspace.MESSAGES)).isEqualTo(500);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(500, 0, 0));
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("ApproximateNumberOfMessages"), f.now))
                .containsEntry("ApproximateNumberOfMessages", "500");
        assertThat(drain(q)).isEqualTo(sent);
        assertThat(f.engine.spilledMessages()).isZero();
        assertThat(disk.count(Keyspace.MESSAGES)).isZero();
    }

    @Test
    void fifoGroupsKeepTheirOrderAcrossTheTail() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        // Dedup entries may take half the budget: let them expire every 40 sends.
        for (int i = 0; i < 300; i++) {
            f.sendFifo(q, "m" + i, "g" + (i % 3), null);
            if (i % 40 == 39) {
                f.advance(QueueState.DEDUP_WINDOW_MS + 1);
                f.engine.tick(f.now);
            }
        }
        assertThat(f.engine.spilledMessages()).isPositive();
        Map<String, List<Integer>> byGroup = new HashMap<>();
        for (String body : drain(q)) {
            int n = Integer.parseInt(body.substring(1));
            byGroup.computeIfAbsent("g" + (n % 3), g -> new ArrayList<>()).add(n);
        }
        for (List<Integer> order : byGroup.values()) {
            assertThat(order).hasSize(100).isSorted();
        }
    }

    @Test
    void everyQueueKeepsAReserveSoItServesWhileAnotherHoldsTheBudget() {
        QueueRef big = f.create("big");
        for (int i = 0; i < 300; i++) {
            f.send(big, "b" + i);
        }
        QueueRef small = f.create("small");
        f.send(small, "s0");
        assertThat(f.bodies(f.receive(small, 10))).containsExactly("s0");
        assertThat(f.engine.indexedMessages()).isEqualTo(BUDGET + 1);
    }

    @Test
    void aRestartWithMoreThanTheBudgetServesTheHeadAndPagesTheRest() {
        QueueRef q = f.create("q");
        List<String> sent = new ArrayList<>();
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, 1_000_000);
        for (int i = 0; i < 1000; i++) {
            sent.add("m" + i);
            f.send(q, "m" + i);
        }
        restart();
        assertThat(f.engine.indexedMessages()).isEqualTo(BUDGET);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1000, 0, 0));
        assertThat(f.bodies(f.receive(q, 10, 0))).containsExactly(sent.subList(0, 10).toArray(String[]::new));
        assertThat(drain(q)).isEqualTo(sent);
    }

    @Test
    void delaysAndRetentionOfTailMessagesAreHonouredWhenPaged() {
        QueueRef q = f.create("q", "MessageRetentionPeriod", "120");
        for (int i = 0; i < BUDGET; i++) {
            f.send(q, "old" + i);
        }
        f.engine.apply(new Command.SendMessage(q, new SendMessage("delayed", null, null, 60, null, null, "s", f.nextId()), f.now)).durable();
        f.advanceSeconds(30);
        f.send(q, "young");
        assertThat(f.engine.spilledMessages()).isEqualTo(2);
        f.advanceSeconds(100); // the "old" ones and "delayed" are past retention (120 s), "young" is not
        assertThat(drain(q)).containsExactly("young");
        assertThat(disk.count(Keyspace.MESSAGES)).isZero();
    }

    @Test
    void aDelayedTailMessageStaysDelayedUntilItsTime() {
        QueueRef q = f.create("q");
        for (int i = 0; i < BUDGET; i++) {
            f.send(q, "m" + i);
        }
        f.engine.apply(new Command.SendMessage(q, new SendMessage("delayed", null, null, 600, null, null, "s", f.nextId()), f.now)).durable();
        assertThat(drain(q)).hasSize(BUDGET).doesNotContain("delayed");
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 1)); // paged in: now it is known to be delayed
        f.advanceSeconds(600);
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("delayed");
    }

    @Test
    void handlesOfMessagesLeftInTheTailByARestartStillDeleteAndChangeVisibility() {
        QueueRef q = f.create("q");
        for (int i = 0; i < 300; i++) {
            f.send(q, "m" + i);
        }
        // index everything, receive 200 (in flight for 300 s), restart with the small budget
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, 1_000_000);
        List<ReceivedMessage> inFlight = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            inFlight.addAll(f.receive(q, 10, 300));
        }
        restart();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(200, 100, 0)); // the tail counts as visible until paged
        ReceivedMessage last = inFlight.get(199);
        f.delete(q, last);
        f.delete(q, last); // a repeat: 200, nothing more
        ReceivedMessage other = inFlight.get(150);
        f.engine.apply(new Command.ChangeVisibility(q, other.receiptHandle(), 0, f.now)).durable();
        assertThat(f.engine.spilledMessages()).isEqualTo(199);
        // the 100 indexed in-flight messages: delete them, then the tail comes in with its receive state
        for (ReceivedMessage m : inFlight.subList(0, BUDGET)) {
            f.delete(q, m);
        }
        f.engine.tick(f.now);
        assertThat(f.bodies(f.receive(q, 2))).containsExactly("m150", "m200"); // the others are still in flight
        f.advanceSeconds(300);
        List<String> rest = drain(q);
        assertThat(rest).hasSize(199).doesNotContain("m199"); // m150 and m200 were received above, not deleted
    }

    @Test
    void aTailHandleOfAFifoQueueMustBeTheCurrentOne() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, 1_000_000);
        for (int i = 0; i < 150; i++) {
            f.sendFifo(q, "m" + i, "g" + i, null);
        }
        List<ReceivedMessage> got = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            got.addAll(f.receive(q, 10, 30));
        }
        f.advanceSeconds(31);
        List<ReceivedMessage> again = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            again.addAll(f.receive(q, 10, 300));
        }
        restart();
        assertThat(f.engine.spilledMessages()).isEqualTo(50);
        assertThat(again.get(140).body()).isEqualTo(got.get(140).body()).isEqualTo("m140");
        assertThatThrownBy(() -> f.engine.apply(new Command.DeleteMessage(q, got.get(140).receiptHandle(), f.now)).durable())
                .isInstanceOf(EngineException.class).hasMessageEndingWith(Texts.HANDLE_EXPIRED);
        f.engine.apply(new Command.DeleteMessage(q, again.get(140).receiptHandle(), f.now)).durable();
        assertThat(f.engine.spilledMessages()).isEqualTo(49);
    }

    @Test
    void aStoreThatKeepsNothingRefusesSendsPastTheBudgetWithRequestThrottled() {
        EngineFixture m = new EngineFixture();
        m.engine = new QueueEngine(m.store, "us-east-1", QueueState.INFLIGHT_LIMIT, m.now, BUDGET);
        QueueRef q = m.create("q");
        List<QueueRef> refusedTo = new ArrayList<>();
        m.engine.setEvents(new EngineEvents() {
            @Override
            public void sendRefused(QueueRef queue) {
                refusedTo.add(queue);
            }
        });
        for (int i = 0; i < BUDGET; i++) {
            m.send(q, "m" + i);
        }
        assertThatThrownBy(() -> m.send(q, "one too many"))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.errorType()).isEqualTo("RequestThrottled"))
                .hasMessage(Texts.INDEX_BUDGET_FULL);
        assertThat(m.engine.refusedSends()).isEqualTo(1);
        assertThat(refusedTo).containsExactly(q); // metrics count it per queue
        assertThat(m.engine.indexUsage()).isEqualTo(new IndexUsage(BUDGET, BUDGET, 0, 0));
        ReceivedMessage r = m.receive(q, 1).get(0);
        m.delete(q, r); // receives and deletes keep working
        m.send(q, "fits again");
        assertThat(m.counts(q)).isEqualTo(new QueueCounts(BUDGET, 0, 0));
    }

    @Test
    void fifoDedupEntriesPastHalfTheBudgetRefuseFifoSends() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        for (int i = 0; i < BUDGET / 2; i++) { // deduplication entries may take half the budget
            f.sendFifo(q, "m" + i, "g", null);
        }
        assertThatThrownBy(() -> f.sendFifo(q, "m-next", "g", null))
                .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.errorType()).isEqualTo("RequestThrottled"))
                .hasMessage(Texts.DEDUP_BUDGET_FULL);
        f.advance(QueueState.DEDUP_WINDOW_MS);
        f.engine.tick(f.now);
        f.sendFifo(q, "m-next", "g", null);
    }

    @Test
    void purgeEmptiesTheTailAtOnce() {
        QueueRef q = f.create("q");
        for (int i = 0; i < 300; i++) {
            f.send(q, "m" + i);
        }
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
        assertThat(f.engine.spilledMessages()).isZero();
        assertThat(f.engine.indexedMessages()).isZero();
        f.send(q, "after");
        assertThat(drain(q)).containsExactly("after");
    }

    @Test
    void pagedInMessagesKeepTheTimeTheyBecameVisible() {
        QueueRef q = f.create("q");
        for (int i = 0; i < 300; i++) {
            f.send(q, "m" + i);
            f.advance(10);
        }
        for (int i = 0; i < 15; i++) {
            f.receive(q, 10).forEach(m -> f.delete(q, m));
        }
        f.engine.tick(f.now);
        QueueState state = f.engine.queues.require(q);
        assertThat(state.messages.values()).anyMatch(m -> m.seq > BUDGET); // part of the tail was paged in
        // "visible since" is what FIFO delivery orders groups by: a paged-in message has it as the loader gives it
        assertThat(state.messages.values()).allSatisfy(m -> assertThat(m.visibleAt).isEqualTo(m.sentAt));
    }

    @Test
    void thePeekReadsPastTheIndexIntoTheTailWithoutPagingIt() {
        QueueRef q = f.create("q");
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sent.add("m" + i);
            f.send(q, "m" + i);
        }
        List<String> seen = new ArrayList<>();
        Long cursor = 1L;
        while (cursor != null) {
            PeekPage page = f.engine.peekMessages(q, cursor, 7, f.now);
            page.messages().forEach(m -> seen.add(m.body()));
            cursor = page.nextSeq();
        }
        assertThat(seen).isEqualTo(sent);
        assertThat(f.engine.spilledMessages()).isEqualTo(200);
        assertThat(f.engine.indexedMessages()).isEqualTo(BUDGET);
        assertThat(f.engine.snapshot()).singleElement().satisfies(s -> assertThat(s.visible()).isEqualTo(300));
    }

    @Test
    void thePeekSkipsTailMessagesThatAreInFlightOrDelayed() {
        QueueRef q = f.create("q");
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, 1_000_000);
        for (int i = 0; i < 300; i++) {
            f.send(q, "m" + i);
        }
        f.engine.apply(new Command.SendMessage(q, new SendMessage("delayed", null, null, 600, null, null, "s", f.nextId()), f.now)).durable();
        for (int i = 0; i < 20; i++) {
            f.receive(q, 10, 300); // m0..m199 in flight
        }
        restart(); // m0..m99 indexed, m100..m299 and "delayed" in the tail
        PeekPage page = f.engine.peekMessages(q, 1, 3, f.now);
        assertThat(page.messages()).extracting(ReceivedMessage::body).containsExactly("m200", "m201", "m202");
        f.advanceSeconds(600); // the receives' timeouts and the delay have ended (no tick ran)
        List<String> all = new ArrayList<>();
        Long cursor = 1L;
        while (cursor != null) {
            page = f.engine.peekMessages(q, cursor, 10, f.now);
            page.messages().forEach(m -> all.add(m.body()));
            cursor = page.nextSeq();
        }
        assertThat(all).hasSize(301).endsWith("m299", "delayed");
        assertThat(f.engine.spilledMessages()).isEqualTo(201);
    }
}
