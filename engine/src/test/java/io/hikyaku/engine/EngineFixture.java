package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.store.MemoryStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A fresh engine over a MemoryStore with a hand-advanced clock. */
class EngineFixture {

    static final String ACCOUNT = "123456789012";
    static final long T0 = 1_700_000_000_000L;

    final MemoryStore store = new MemoryStore();
    QueueEngine engine = new QueueEngine(store, "us-east-1");

    /** A fixture whose engine runs over {@code disk} with an index budget of {@code maxIndexed} messages. */
    static EngineFixture budgeted(DiskLikeStore disk, long maxIndexed) {
        EngineFixture f = new EngineFixture();
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, maxIndexed);
        return f;
    }
    long now = T0;
    private int ids;
    private long nonce = 7;

    void advance(long millis) {
        now += millis;
    }

    void advanceSeconds(long s) {
        now += s * 1000;
    }

    /** A new engine over the same store (a restart), the load stamped with the current time. */
    void restart() {
        engine = new QueueEngine(store, "us-east-1", now);
    }

    /** A restart over a store that cuts values in scanHeads, as RocksDbStore does; returns it. */
    HeadCuttingStore restartOverHeadCuttingStore() {
        HeadCuttingStore cutting = new HeadCuttingStore(store);
        engine = new QueueEngine(cutting, "us-east-1", now);
        return cutting;
    }

    /** A restart whose load carries no time: everything waits for the first advance. */
    void restartUnstamped() {
        engine = new QueueEngine(store, "us-east-1");
    }

    static QueueRef ref(String name) {
        return new QueueRef(ACCOUNT, name);
    }

    static Map<String, String> attrs(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    QueueRef create(String name, String... kv) {
        return engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, name, AttributeUpdate.of(attrs(kv)), null, now))).durable()
                .value().ref();
    }

    QueueRef createFifo(String name, String... kv) {
        String[] all = new String[kv.length + 2];
        all[0] = "FifoQueue";
        all[1] = "true";
        System.arraycopy(kv, 0, all, 2, kv.length);
        return create(name, all);
    }

    String nextId() {
        return "00000000-0000-0000-0000-" + String.format("%012d", ++ids);
    }

    SendResult send(QueueRef q, String body) {
        return engine.apply(new Command.SendMessage(q, message(body, null, null), now)).durable().value();
    }

    SendResult sendFifo(QueueRef q, String body, String group, String dedup) {
        return engine.apply(new Command.SendMessage(q, message(body, group, dedup), now)).durable().value();
    }

    SendMessage message(String body, String group, String dedup) {
        return new SendMessage(body, null, null, null, group, dedup, ACCOUNT, nextId());
    }

    List<ReceivedMessage> receive(QueueRef q, int max) {
        return engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(max, null, null, ++nonce, now))).durable().value();
    }

    List<ReceivedMessage> receive(QueueRef q, int max, int visibility) {
        return engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(max, visibility, null, ++nonce, now))).durable().value();
    }

    List<String> bodies(List<ReceivedMessage> ms) {
        return ms.stream().map(ReceivedMessage::body).toList();
    }

    void delete(QueueRef q, ReceivedMessage m) {
        engine.apply(new Command.DeleteMessage(q, m.receiptHandle(), now)).durable();
    }

    QueueCounts counts(QueueRef q) {
        return EngineFixture.countsAt(engine, q, now);
    }

    /** What a read of the queue sees at {@code now}: {@link Command.Advance} applied, then the pure counts. */
    static QueueCounts countsAt(QueueEngine engine, QueueRef q, long now) {
        engine.apply(new Command.Advance(q, now)).durable();
        return engine.counts(q);
    }

    /** GetQueueAttributes as the api does it: {@link Command.Advance} applied, then the pure read. */
    static Map<String, String> attributesAt(QueueEngine engine, QueueRef q, java.util.Collection<String> names,
                                            long now) {
        engine.apply(new Command.Advance(q, now)).durable();
        return engine.readQueueAttributes(q, names);
    }

    /** Whether a receive at {@code now} could return a message: {@link Command.Advance}, then the pure check. */
    static boolean deliverableAt(QueueEngine engine, QueueRef q, long now) {
        engine.apply(new Command.Advance(q, now)).durable();
        return engine.hasDeliverable(q);
    }

    /** {@link #drain(QueueRef, Runnable)} with no check between rounds. */
    List<String> drain(QueueRef q) {
        return drain(q, () -> {});
    }

    /**
     * Receives and deletes until nothing is visible or in flight, ticking as a server would, and runs
     * {@code afterEachRound} (a test's invariant) after every round; the bodies in delivery order.
     */
    List<String> drain(QueueRef q, Runnable afterEachRound) {
        List<String> out = new ArrayList<>();
        for (int round = 0; round < 100_000; round++) {
            engine.tick(now);
            List<ReceivedMessage> got = receive(q, 10);
            QueueCounts c = counts(q);
            if (got.isEmpty() && c.visible() == 0 && c.notVisible() == 0) {
                return out;
            }
            for (ReceivedMessage m : got) {
                out.add(m.body());
                delete(q, m);
            }
            afterEachRound.run();
        }
        throw new AssertionError("did not drain");
    }
}
