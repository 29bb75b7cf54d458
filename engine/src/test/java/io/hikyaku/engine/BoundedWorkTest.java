package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static io.hikyaku.engine.EngineFixture.ACCOUNT;
import static io.hikyaku.engine.EngineFixture.attrs;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.Keyspace;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Purge, DeleteQueue, retention cuts and dead-letter moves do bounded work per command and per
 * tick (ENGINE.md "Bounded work"), with the results clients saw before: at once.
 */
class BoundedWorkTest {

    private static final int N = 5_500;

    private final DiskLikeStore disk = new DiskLikeStore();
    private final EngineFixture f = EngineFixture.budgeted(disk, 1_000_000);

    private void restart() {
        f.engine = new QueueEngine(disk, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, 1_000_000);
    }

    private void fill(QueueRef q, String prefix) {
        for (int i = 0; i < N; i += 10) {
            List<SendMessage> batch = new java.util.ArrayList<>();
            for (int j = i; j < Math.min(N, i + 10); j++) {
                batch.add(f.message(prefix + j, null, null));
            }
            f.engine.apply(new Command.SendMessageBatch(q, batch, f.now)).durable();
        }
    }

    /** Ticks until the engine has nothing due now; returns how many ticks that took. */
    private int tickUntilIdle() {
        int ticks = 0;
        while (f.engine.nextDeadline() <= f.now) {
            f.engine.tick(f.now);
            ticks++;
            assertThat(ticks).isLessThan(100);
        }
        return ticks;
    }

    @Test
    void purgeHidesEverythingAtOnceAndCleansTheStoreInChunks() {
        QueueRef q = f.create("q");
        fill(q, "m");
        ReceivedMessage inFlight = f.receive(q, 1).get(0);
        disk.largestBatch = 0;
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(disk.largestBatch).isLessThan(10); // the purge's own batch: the bound, the record
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
        assertThat(f.receive(q, 10)).isEmpty();
        f.delete(q, inFlight); // a handle of a purged message deletes nothing, as before
        f.send(q, "after");
        assertThat(disk.count(Keyspace.MESSAGES)).isEqualTo(N + 1);
        assertThat(tickUntilIdle()).isBetween(N / Cleanups.CHUNK, N / Cleanups.CHUNK + 2);
        assertThat(disk.largestBatch).as("a chunk, and the tick's applied-at").isLessThanOrEqualTo(Cleanups.CHUNK + 1);
        assertThat(disk.count(Keyspace.MESSAGES)).isOne();
        assertThat(disk.count(Keyspace.MESSAGE_STATE)).isZero();
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("after");
    }

    @Test
    void aRestartInTheMiddleOfAPurgeCleanupBringsNothingBack() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        for (int i = 0; i < 2_500; i++) {
            f.sendFifo(q, "m" + i, "g" + (i % 7), null);
        }
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        f.engine.tick(f.now); // one chunk of the cleanup
        f.sendFifo(q, "m0", "g0", null); // the purge forgot the dedup entries: accepted as new
        restart();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        tickUntilIdle();
        assertThat(disk.count(Keyspace.MESSAGES)).isOne();
        assertThat(disk.count(Keyspace.DEDUP)).isOne();
        assertThat(f.bodies(f.receive(q, 10))).containsExactly("m0");
    }

    @Test
    void deleteQueueIsGoneAtOnceAndItsKeysGoInChunksEvenAcrossARestart() {
        QueueRef q = f.create("q");
        QueueRef other = f.create("other");
        fill(q, "m");
        f.send(other, "keep");
        disk.largestBatch = 0;
        f.engine.apply(new Command.DeleteQueue(q, f.now)).durable();
        assertThat(disk.largestBatch).isLessThan(10);
        assertThat(f.engine.listQueues(ACCOUNT, null, null, null).queues()).extracting(QueueInfo::name).containsExactly("other");
        f.engine.tick(f.now);
        assertThat(disk.count(Keyspace.MESSAGES)).isEqualTo(N + 1 - Cleanups.CHUNK);
        restart();
        tickUntilIdle();
        assertThat(disk.largestBatch).as("a chunk, and the tick's applied-at").isLessThanOrEqualTo(Cleanups.CHUNK + 1);
        assertThat(disk.count(Keyspace.MESSAGES)).isOne();
        assertThat(f.bodies(f.receive(other, 10))).containsExactly("keep");
    }

    @Test
    void aRetentionCutIsChunkedAndNothingExpiredIsEverDelivered() {
        QueueRef q = f.create("q");
        fill(q, "old");
        f.advanceSeconds(3_600);
        f.send(q, "young");
        disk.largestBatch = 0;
        f.engine.apply(new Command.SetQueueAttributes(q, new AttributeUpdate(attrs("MessageRetentionPeriod", "60"), null, null), f.now)).durable();
        // Without ticks, each receive cuts (advance) and skips (receiver) a bounded number of
        // expired messages; an expired one is never delivered, "young" comes as soon as it is reached.
        List<String> got = List.of();
        int receives = 0;
        while (got.isEmpty()) {
            got = f.bodies(f.receive(q, 10));
            assertThat(++receives).isLessThanOrEqualTo(N / Receiver.MAX_SET_ASIDE + 1);
        }
        assertThat(got).containsExactly("young");
        assertThat(disk.largestBatch).isLessThanOrEqualTo(Receiver.MAX_SET_ASIDE + 10);
        tickUntilIdle();
        assertThat(disk.largestBatch).isLessThanOrEqualTo(Receiver.MAX_SET_ASIDE + 10);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 1, 0));
        assertThat(disk.count(Keyspace.MESSAGES)).isOne();
    }

    @Test
    void deadLetterMovesAreBoundedPerReceive() {
        QueueRef dlq = f.create("dlq");
        QueueRef src = f.create("src");
        String arn = "arn:aws:sqs:us-east-1:" + ACCOUNT + ":dlq";
        f.engine.apply(new Command.SetQueueAttributes(src, new AttributeUpdate(attrs("RedrivePolicy",
                "{\"deadLetterTargetArn\":\"" + arn + "\",\"maxReceiveCount\":\"1\"}"), new RedrivePolicy(arn, 1), null), f.now)).durable();
        fill(src, "m");
        for (int i = 0; i < N; i += 10) {
            f.receive(src, 10, 1); // received once, visible again a second later
        }
        f.advanceSeconds(2);
        List<ReceivedMessage> got = f.receive(src, 10);
        assertThat(got).isEmpty(); // the first 1,000 moved; the receive stopped there
        assertThat(f.counts(dlq).visible()).isEqualTo(Receiver.MAX_SET_ASIDE);
        for (int i = 0; i < 10 && f.counts(src).visible() > 0; i++) {
            f.receive(src, 10);
        }
        assertThat(f.counts(src)).isEqualTo(new QueueCounts(0, 0, 0));
        assertThat(f.counts(dlq).visible()).isEqualTo(N);
    }
}
