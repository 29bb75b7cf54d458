package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BatchAndTimerTest {

    private final EngineFixture f = new EngineFixture();

    @Test
    void deleteAndChangeVisibilityBatchesReportPerEntry() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        f.send(q, "b");
        List<ReceivedMessage> got = f.receive(q, 10);
        List<BatchOutcome<Void>> changed = f.engine.apply(new Command.ChangeVisibilityBatch(q, List.of(
                new VisibilityChange(got.get(0).receiptHandle(), 0),
                new VisibilityChange("garbage", 0),
                new VisibilityChange(got.get(1).receiptHandle(), 50_000)), f.now)).durable().value();
        assertThat(changed.get(0).ok()).isTrue();
        assertThat(changed.get(1).error().errorType()).isEqualTo("ReceiptHandleIsInvalid");
        assertThat(changed.get(2).error().errorType()).isEqualTo("InvalidParameterValue");
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 1, 0));
        List<BatchOutcome<Void>> deleted = f.engine.apply(new Command.DeleteMessageBatch(q,
                List.of(got.get(1).receiptHandle(), "bad"), f.now)).durable().value();
        assertThat(deleted).extracting(BatchOutcome::ok).containsExactly(true, false);
        assertThat(f.engine.apply(new Command.DeleteMessageBatch(q, List.of(), f.now)).durable().value()).isEmpty();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
    }

    @Test
    void tickReportsQueuesWhoseDelayEnded() {
        QueueRef a = f.create("a", "DelaySeconds", "3");
        QueueRef b = f.create("b");
        f.send(a, "x");
        f.send(b, "y");
        f.receive(b, 1, 5);
        assertThat(EngineFixture.deliverableAt(f.engine, a, f.now)).isFalse();
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 3000);
        f.advanceSeconds(3);
        Ticked t = f.engine.tick(f.now);
        assertThat(t.queuesWithNewVisibleMessages()).containsExactly(a);
        assertThat(t.written()).isCompleted();
        assertThat(EngineFixture.deliverableAt(f.engine, a, f.now)).isTrue();
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 5000);
        f.advanceSeconds(2);
        assertThat(f.engine.tick(f.now).queuesWithNewVisibleMessages()).containsExactly(b);
    }

    @Test
    void fifoGroupInFlightIsNotDeliverable() {
        QueueRef q = f.createFifo("q.fifo");
        f.sendFifo(q, "a", "G", "1");
        f.sendFifo(q, "b", "G", "2");
        f.receive(q, 1);
        assertThat(EngineFixture.deliverableAt(f.engine, q, f.now)).isFalse();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 1, 0));
    }

    @Test
    void durableFuturesCompleteWithTheValue() {
        QueueRef q = f.create("q");
        Durable<SendResult> sent = f.engine.apply(new Command.SendMessage(q, f.message("x", null, null), f.now)).durable();
        assertThat(sent.future()).isCompletedWithValue(sent.value());
    }

    @Test
    void dedupAndAttemptEntriesAreTimers() {
        QueueRef q = f.createFifo("q.fifo", "MessageRetentionPeriod", "1209600");
        f.sendFifo(q, "a", "G", "1");
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 300_000);
        f.advance(300_000);
        f.engine.tick(f.now);
        assertThat(f.engine.nextDeadline()).isEqualTo(EngineFixture.T0 + 1_209_600_000L);
    }
}
