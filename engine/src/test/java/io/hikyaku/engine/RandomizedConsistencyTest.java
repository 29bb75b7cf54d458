package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random operation sequences (seeded, so reproducible) against standard, fair and FIFO queues:
 * after every step the O(1) counters must match a recount of message states, FIFO order must hold
 * per group, and a restart must rebuild the same message states.
 */
class RandomizedConsistencyTest {

    private EngineFixture f = new EngineFixture();
    /** Set for the spilling variant: the store, whose MESSAGES must always equal index + tail. */
    private DiskLikeStore disk;
    /** The most messages the spilling variant ever had in tails (it must spill to test anything). */
    private long mostSpilled;

    @Test
    void countersOrderAndRebuildStayConsistent() {
        List<QueueRef> all = runSteps(new Random(42));
        restartChecks(all);
    }

    /**
     * The same workload with an index budget of 30 messages over a store that spills: tails form
     * and are paged in all the time; counters, FIFO order, "stored = indexed + tail" and the budget's
     * totals hold after every step and after a restart.
     */
    @Test
    void withATinyBudgetTailsStayConsistentToo() {
        disk = new DiskLikeStore();
        f = EngineFixture.budgeted(disk, 30);
        List<QueueRef> all = runSteps(new Random(7));
        assertThat(mostSpilled).isGreaterThan(30);
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, 30);
        for (QueueRef each : all) {
            EngineFixture.countsAt(f.engine, each, f.now);
            assertConsistent(f.engine.queues.require(each));
        }
        assertBudgetTotals(all);
    }

    private List<QueueRef> runSteps(Random random) {
        QueueRef dlq = f.create("dlq");
        QueueRef std = f.create("std", "VisibilityTimeout", "3", "MessageRetentionPeriod", "120");
        f.engine.apply(new Command.SetQueueAttributes(std, new AttributeUpdate(Map.of("RedrivePolicy", "{}"),
                new RedrivePolicy("arn:aws:sqs:us-east-1:" + EngineFixture.ACCOUNT + ":dlq", 4), null), f.now)).durable();
        QueueRef fifo = f.createFifo("f.fifo", "VisibilityTimeout", "2", "ContentBasedDeduplication", "true");
        return steps(random, List.of(std, fifo, dlq), dlq, std, fifo);
    }

    private List<QueueRef> steps(Random random, List<QueueRef> all, QueueRef dlq, QueueRef std, QueueRef fifo) {
        Map<QueueRef, List<ReceivedMessage>> held = new TreeMap<>((a, b) -> a.name().compareTo(b.name()));
        all.forEach(q -> held.put(q, new ArrayList<>()));
        int counter = 0;
        for (int step = 0; step < 4000; step++) {
            QueueRef q = all.get(random.nextInt(all.size()));
            int op = random.nextInt(10);
            if (op < 4 && q != dlq) {
                String group = random.nextInt(3) == 0 && q == std ? null : "g" + random.nextInt(4);
                Integer delay = q == std && random.nextBoolean() ? random.nextInt(3) : null;
                try {
                    f.engine.apply(new Command.SendMessage(q, new SendMessage(Integer.toString(++counter), null, null, delay, group, null,
                            "s", f.nextId()), f.now)).durable();
                } catch (EngineException e) { // with the tiny budget, FIFO dedup entries fill their half of it
                    assertThat(disk).isNotNull();
                    assertThat(e.errorType()).isEqualTo(ErrorTypes.REQUEST_THROTTLED);
                }
            } else if (op < 7) {
                QueueState state = f.engine.queues.require(q);
                EngineFixture.countsAt(f.engine, q, f.now);
                int max = 1 + random.nextInt(10);
                List<Long> expected = q == fifo ? fifoModel(state, max) : null;
                List<ReceivedMessage> got = f.receive(q, max);
                if (q == fifo) {
                    assertThat(got).extracting(m -> ReceiptHandle.decode(m.receiptHandle()).seq())
                            .containsExactlyElementsOf(expected);
                    for (ReceivedMessage m : got) {
                        long seq = ReceiptHandle.decode(m.receiptHandle()).seq();
                        // every older message of the group still present came in this same receive
                        for (Message other : state.messages.values()) {
                            if (m.groupId().equals(other.groupId) && other.seq < seq) {
                                assertThat(other.state).isEqualTo(Message.State.INFLIGHT);
                                assertThat(other.nonce).isEqualTo(ReceiptHandle.decode(m.receiptHandle()).nonce());
                            }
                        }
                    }
                }
                held.get(q).addAll(got);
            } else if (op < 8 && !held.get(q).isEmpty()) {
                ReceivedMessage m = held.get(q).remove(random.nextInt(held.get(q).size()));
                try {
                    f.engine.apply(new Command.DeleteMessage(q, m.receiptHandle(), f.now)).durable();
                } catch (EngineException e) {
                    assertThat(e.getMessage()).contains("The receipt handle has expired.");
                }
            } else if (op < 9 && !held.get(q).isEmpty()) {
                ReceivedMessage m = held.get(q).get(random.nextInt(held.get(q).size()));
                try {
                    f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), random.nextInt(4), f.now)).durable();
                } catch (EngineException e) {
                    assertThat(e.errorType()).isIn("MessageNotInflight", "InvalidParameterValue");
                }
            } else {
                f.advance(random.nextInt(1500));
                if (random.nextBoolean()) {
                    f.engine.tick(f.now);
                }
            }
            for (QueueRef each : all) {
                assertConsistent(f.engine.queues.require(each));
            }
            if (disk != null) {
                assertBudgetTotals(all);
            }
        }
        return all;
    }

    private void restartChecks(List<QueueRef> all) {
        Map<QueueRef, Map<Long, String>> before = new java.util.HashMap<>();
        for (QueueRef each : all) {
            EngineFixture.countsAt(f.engine, each, f.now);
            before.put(each, snapshot(f.engine.queues.require(each)));
        }
        f.restart();
        for (QueueRef each : all) {
            EngineFixture.countsAt(f.engine, each, f.now);
            QueueState q = f.engine.queues.require(each);
            assertConsistent(q);
            assertThat(snapshot(q)).isEqualTo(before.get(each));
        }
        f.restartUnstamped(); // the unstamped load reaches the same state at the first advance
        for (QueueRef each : all) {
            EngineFixture.countsAt(f.engine, each, f.now);
            QueueState q = f.engine.queues.require(each);
            assertConsistent(q);
            assertThat(snapshot(q)).isEqualTo(before.get(each));
        }
    }

    /**
     * sqs-behaviours 78/79 by brute force: groups whose oldest message is visible, longest visible
     * first (then older message), each giving its leading run of visible messages.
     */
    private static List<Long> fifoModel(QueueState q, int max) {
        Map<String, List<Message>> groups = new java.util.HashMap<>();
        q.messages.values().stream().sorted(java.util.Comparator.comparingLong(m -> m.seq))
                .forEach(m -> groups.computeIfAbsent(m.groupId, g -> new ArrayList<>()).add(m));
        List<List<Message>> ready = new ArrayList<>(groups.values().stream()
                .filter(g -> g.get(0).state == Message.State.VISIBLE).toList());
        ready.sort(java.util.Comparator.<List<Message>>comparingLong(g -> g.get(0).visibleAt)
                .thenComparingLong(g -> g.get(0).seq));
        List<Message> out = new ArrayList<>();
        for (List<Message> g : ready) {
            for (Message m : g) {
                if (out.size() >= max || m.state != Message.State.VISIBLE) {
                    break;
                }
                out.add(m);
            }
        }
        return out.stream().map(m -> m.seq).toList();
    }

    /** Stored messages = indexed + tail per queue; the budget's totals are the sums; the index is a seq-prefix. */
    private void assertBudgetTotals(List<QueueRef> all) {
        long indexed = 0;
        long spilled = 0;
        for (QueueRef each : all) {
            QueueState q = f.engine.queues.require(each);
            int[] stored = {0};
            disk.inner.scan(io.hikyaku.engine.store.Keyspace.MESSAGES, Keys.queue(q.id), (k, v) -> {
                stored[0]++;
                return true;
            });
            assertThat(stored[0]).as(each.name()).isEqualTo(q.messages.size() + q.tail);
            if (q.tail > 0) {
                assertThat(q.messages.values()).allMatch(m -> m.seq < q.tailFrom);
            }
            indexed += q.messages.size();
            spilled += q.tail;
        }
        assertThat(f.engine.indexedMessages()).isEqualTo(indexed);
        assertThat(f.engine.spilledMessages()).isEqualTo(spilled);
        mostSpilled = Math.max(mostSpilled, spilled);
    }

    private static Map<Long, String> snapshot(QueueState q) {
        Map<Long, String> s = new TreeMap<>();
        q.messages.values().forEach(m -> s.put(m.seq, m.state + "/" + m.receiveCount + "/"
                + (m.state == Message.State.VISIBLE ? 0 : m.visibleAt)));
        return s;
    }

    private static void assertConsistent(QueueState q) {
        int visible = 0;
        int inflight = 0;
        int delayed = 0;
        for (Message m : q.messages.values()) {
            switch (m.state) {
                case VISIBLE -> visible++;
                case INFLIGHT -> inflight++;
                case DELAYED -> delayed++;
            }
        }
        assertThat(new int[] {q.visible, q.inflight, q.delayed}).containsExactly(visible, inflight, delayed);
        assertThat(q.pending.size()).isEqualTo(inflight + delayed);
        assertThat(q.retention.size()).isEqualTo(q.messages.size());
        assertThat(q.pending.first()).isEqualTo(q.messages.values().stream()
                .filter(m -> m.state != Message.State.VISIBLE).min(Message.BY_VISIBLE_AT).orElse(null));
        assertThat(q.retention.first()).isEqualTo(q.messages.values().stream().min(Message.BY_SENT_AT).orElse(null));
        assertThat(q.delivery.hasDeliverable()).isEqualTo(q.fifo ? q.fifoDelivery().candidates(1).size() == 1 : visible > 0);
    }
}
