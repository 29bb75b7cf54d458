package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The read-only peek: what it shows, its cursor and bound, and that it changes nothing. */
class PeekTest {

    private final EngineFixture f = new EngineFixture();

    @Test
    void showsVisibleMessagesInOrderWithoutChangingThem() {
        QueueRef q = f.create("q", "VisibilityTimeout", "30");
        for (int i = 0; i < 5; i++) {
            f.send(q, "m" + i);
        }
        f.receive(q, 1); // m0 in flight
        PeekPage page = f.engine.peekMessages(q, 1, 10, f.now);
        assertThat(page.messages()).extracting(ReceivedMessage::body).containsExactly("m1", "m2", "m3", "m4");
        assertThat(page.messages()).allSatisfy(m -> {
            assertThat(m.receiptHandle()).isNull();
            assertThat(m.approximateReceiveCount()).isZero();
        });
        assertThat(page.nextSeq()).isNull();
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(4, 1, 0));
        // still all receivable, receive count 1 at the first real receive
        List<ReceivedMessage> got = f.receive(q, 10);
        assertThat(got).extracting(ReceivedMessage::body).containsExactly("m1", "m2", "m3", "m4");
        assertThat(got).allSatisfy(m -> assertThat(m.approximateReceiveCount()).isEqualTo(1));
    }

    @Test
    void pagesWithTheCursorAndShowsExpiredVisibilityAsVisible() {
        QueueRef q = f.create("q", "VisibilityTimeout", "10");
        for (int i = 0; i < 4; i++) {
            f.send(q, "m" + i);
        }
        f.receive(q, 1);
        PeekPage first = f.engine.peekMessages(q, 1, 2, f.now);
        assertThat(first.messages()).extracting(ReceivedMessage::body).containsExactly("m1", "m2");
        PeekPage second = f.engine.peekMessages(q, first.nextSeq(), 2, f.now);
        assertThat(second.messages()).extracting(ReceivedMessage::body).containsExactly("m3");
        f.advanceSeconds(10); // m0's timeout ended; no tick ran
        PeekPage later = f.engine.peekMessages(q, 1, 10, f.now);
        assertThat(later.messages()).extracting(ReceivedMessage::body).containsExactly("m0", "m1", "m2", "m3");
        assertThat(later.messages().get(0).approximateReceiveCount()).isEqualTo(1);
    }

    @Test
    void writesNothingEvenWhenTimersAreDue() {
        CountingStore counting = new CountingStore(f.store);
        f.engine = new QueueEngine(counting, "us-east-1", f.now);
        QueueRef q = f.create("q", "MessageRetentionPeriod", "60", "DelaySeconds", "5");
        f.send(q, "old");
        f.advanceSeconds(61); // "old" is past retention; nothing processed it yet
        int before = counting.writes;
        assertThat(f.engine.peekMessages(q, 1, 10, f.now).messages()).isEmpty();
        assertThat(counting.writes).isEqualTo(before);
    }

    @Test
    void delayedMessagesAreHiddenAndBoundIsRespected() {
        QueueRef q = f.create("q");
        f.engine.apply(new Command.SendMessage(q, new SendMessage("late", null, null, 60, null, null, EngineFixture.ACCOUNT, f.nextId()), f.now)).durable();
        assertThat(f.engine.peekMessages(q, 1, 10, f.now).messages()).isEmpty();
        List<ReceivedMessage> received = new ArrayList<>();
        for (int i = 0; i < QueueEngine.PEEK_SCAN_LIMIT + 5; i++) {
            f.send(q, "m" + i);
        }
        received.addAll(f.receive(q, 10)); // make the head in flight
        PeekPage page = f.engine.peekMessages(q, 1, 10, f.now);
        assertThat(page.messages()).hasSize(10);
        assertThatThrownBy(() -> f.engine.peekMessages(q, 1, 11, f.now))
                .isInstanceOf(EngineException.class).hasMessageContaining("MaxNumberOfMessages");
    }

    @Test
    void aScanLongerThanTheBoundReturnsACursor() {
        QueueRef q = f.create("q", "VisibilityTimeout", "300");
        for (int i = 0; i < QueueEngine.PEEK_SCAN_LIMIT + 3; i++) {
            f.send(q, "m" + i);
        }
        for (int i = 0; i < QueueEngine.PEEK_SCAN_LIMIT; i += 10) {
            f.receive(q, 10); // the first 1000 in flight
        }
        PeekPage page = f.engine.peekMessages(q, 1, 10, f.now);
        assertThat(page.messages()).isEmpty();
        assertThat(page.nextSeq()).isNotNull();
        PeekPage rest = f.engine.peekMessages(q, page.nextSeq(), 10, f.now);
        assertThat(rest.messages()).extracting(ReceivedMessage::body)
                .containsExactly("m1000", "m1001", "m1002");
    }

    /** Counts write batches. */
    private static final class CountingStore extends ForwardingStore {
        private final Store inner;
        int writes;

        CountingStore(Store inner) {
            this.inner = inner;
        }

        @Override
        protected Store delegate() {
            return inner;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            writes++;
            return inner.write(batch);
        }
    }
}
