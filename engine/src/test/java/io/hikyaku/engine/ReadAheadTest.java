package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A receive that must read a body from a disk store reads the following messages with the same seek. */
class ReadAheadTest {

    private final DiskLikeStore disk = new DiskLikeStore();
    private final HeadCuttingStore store = new HeadCuttingStore(disk);
    private final EngineFixture f = new EngineFixture();

    private void start(long maxIndexed, long window) {
        f.engine = new QueueEngine(store, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, maxIndexed, window);
    }

    private long used() {
        return f.engine.queues.bodies.usedBytes();
    }

    private List<String> sendAll(QueueRef q, int n, String prefix) {
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(prefix + i);
            f.send(q, prefix + i);
        }
        return sent;
    }

    @Test
    void aStoredBacklogIsReadOneSeekPerSpanWithoutPointReads() {
        start(Long.MAX_VALUE, Long.MAX_VALUE);
        QueueRef q = f.create("q");
        List<String> sent = sendAll(q, 1000, "m");
        start(Long.MAX_VALUE, Long.MAX_VALUE); // a restart: nothing cached
        assertThat(used()).isZero();

        assertThat(f.drain(q)).isEqualTo(sent);
        assertThat(store.gets).isZero();
        // one seek reads the message asked for and the SPAN after it
        assertThat(store.wholeMessageScans).isEqualTo((1000 + ReadAhead.SPAN) / (ReadAhead.SPAN + 1));
        assertThat(used()).isZero(); // every cached body was released by its delivery
    }

    @Test
    void pagedInTailMessagesAreReadAheadAndTheReadStopsAtTheTail() {
        start(Long.MAX_VALUE, 100); // a window of 100: the rest of the queue is a spilled tail
        QueueRef q = f.create("q");
        List<String> sent = sendAll(q, 700, "m");
        start(Long.MAX_VALUE, 100);
        assertThat(f.engine.spilledMessages()).isPositive();

        assertThat(f.drain(q)).isEqualTo(sent);
        assertThat(store.gets).isZero();
        assertThat(used()).isZero();
    }

    @Test
    void inFlightAndDelayedMessagesAreNotCachedAndComeBackRight() {
        start(Long.MAX_VALUE, Long.MAX_VALUE);
        QueueRef q = f.create("q");
        sendAll(q, 5, "early");
        List<ReceivedMessage> first = f.receive(q, 3); // in flight across the restart
        f.engine.apply(new Command.SendMessage(q, new SendMessage("delayed", null, null, 60, null, null, null, f.nextId(), null), f.now)).durable();
        sendAll(q, 5, "late");
        start(Long.MAX_VALUE, Long.MAX_VALUE);

        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(f.bodies(got)).containsExactly("early3", "early4", "late0", "late1", "late2", "late3", "late4");
        assertThat(used()).isZero(); // nothing visible was left to keep

        f.advanceSeconds(61); // the three in flight come back, and the delayed one is due
        List<String> again = new ArrayList<>();
        List<ReceivedMessage> batch;
        while (!(batch = f.receive(q, 10)).isEmpty()) {
            again.addAll(f.bodies(batch));
        }
        assertThat(again).containsExactlyInAnyOrder("early0", "early1", "early2", "delayed", "late0", "late1",
                "late2", "late3", "late4", "early3", "early4");
        assertThat(first).hasSize(3);
    }

    @Test
    void theBudgetBoundsWhatIsReadAheadAndResultsStayTheSame() {
        start(Long.MAX_VALUE, Long.MAX_VALUE);
        QueueRef q = f.create("q");
        String big = "x".repeat(200_000);
        List<String> sent = sendAll(q, 100, big); // ~40 MB of charge: more than the budget
        start(Long.MAX_VALUE, Long.MAX_VALUE);

        List<String> received = new ArrayList<>();
        List<ReceivedMessage> batch;
        while (!(batch = f.receive(q, 10)).isEmpty()) {
            assertThat(used()).isLessThanOrEqualTo(BodyCache.DEFAULT_LIMIT_BYTES);
            batch.forEach(m -> received.add(m.body()));
            batch.forEach(m -> f.delete(q, m));
        }
        assertThat(received).isEqualTo(sent);
        assertThat(used()).isZero();
    }

    @Test
    void aPeekCachesNothing() {
        start(Long.MAX_VALUE, Long.MAX_VALUE);
        QueueRef q = f.create("q");
        sendAll(q, 20, "m");
        start(Long.MAX_VALUE, Long.MAX_VALUE);
        assertThat(f.engine.peekMessages(q, 1, 10, f.now).messages()).hasSize(10);
        assertThat(used()).isZero();
        assertThat(store.wholeMessageScans).isZero();
    }
}
