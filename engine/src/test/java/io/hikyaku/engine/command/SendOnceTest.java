package io.hikyaku.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.SendResult;
import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@link Command.SendOnce}: a repeat stores nothing, across a reload too; message and record share one batch. */
class SendOnceTest {

    private static final String ACCOUNT = "123456789012";
    private static final String SOURCE = "arn:aws:scheduler:us-east-1:" + ACCOUNT + ":schedule/default/s";
    private static final long T0 = 1_800_000_000_000L;

    /** Keeps every batch written, to look at what travelled together. */
    private static final class Batches extends ForwardingStore {
        final List<StoreBatch> written = new ArrayList<>();

        private final MemoryStore store;

        Batches(MemoryStore store) {
            this.store = store;
        }

        @Override
        protected io.hikyaku.engine.store.Store delegate() {
            return store;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            written.add(batch);
            return super.write(batch);
        }
    }

    private static SendMessage message(String id) {
        return new SendMessage("fire", null, null, null, null, null, null, id);
    }

    private static SendResult once(QueueEngine engine, QueueRef q, String id, long generation, long position, long now) {
        Applied<SendResult> a = engine.apply(new Command.SendOnce(q, message(id), SOURCE, generation, position, now));
        assertThat(a).isInstanceOf(Applied.Done.class);
        return a.value();
    }

    private static long visible(QueueEngine engine, QueueRef q, long now) {
        engine.apply(new Command.Advance(q, now));
        return engine.counts(q).visible();
    }

    @Test
    void aRepeatStoresNothingAndAnswersTheFirstMessageIdEvenAfterAReload() {
        MemoryStore memory = new MemoryStore();
        Batches store = new Batches(memory);
        QueueEngine engine = new QueueEngine(store, "us-east-1");
        QueueRef q = engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, "q", AttributeUpdate.of(Map.of()), null, T0)))
                .value().ref();

        assertThat(once(engine, q, "m1", 1, 1000, T0 + 1).messageId()).isEqualTo("m1");
        StoreBatch first = store.written.get(store.written.size() - 1);
        assertThat(first.ops()).extracting(StoreBatch.Op::space).contains(Keyspace.MESSAGES, Keyspace.HOUSEKEEPING);
        assertThat(once(engine, q, "m2", 1, 1000, T0 + 2).messageId()).isEqualTo("m1"); // the same fire again
        assertThat(once(engine, q, "m3", 1, 999, T0 + 3).messageId()).isEqualTo("m1"); // an earlier one
        assertThat(visible(engine, q, T0 + 4)).isEqualTo(1);

        QueueEngine reloaded = new QueueEngine(memory, "us-east-1", T0 + 5); // a crash: only the store is left
        assertThat(once(reloaded, q, "m4", 1, 1000, T0 + 6).messageId()).isEqualTo("m1");
        assertThat(visible(reloaded, q, T0 + 7)).isEqualTo(1);
        assertThat(once(reloaded, q, "m5", 1, 2000, T0 + 8).messageId()).isEqualTo("m5"); // the next fire
        assertThat(once(reloaded, q, "m6", 2, 500, T0 + 9).messageId()).isEqualTo("m6"); // the source recreated
        assertThat(once(reloaded, q, "m7", 2, 500, T0 + 10).messageId()).isEqualTo("m6");
        assertThat(visible(reloaded, q, T0 + 11)).isEqualTo(3);
    }

    @Test
    void aRefusedSendLeavesNoRecord() {
        QueueEngine engine = new QueueEngine(new MemoryStore(), "us-east-1");
        QueueRef q = engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, "q", AttributeUpdate.of(Map.of()), null, T0)))
                .value().ref();
        String tooBig = "x".repeat(1024 * 1024 + 1);
        Applied<SendResult> refused = engine.apply(new Command.SendOnce(q,
                new SendMessage(tooBig, null, null, null, null, null, null, "big"), SOURCE, 1, 1000, T0 + 1));
        assertThat(refused).isInstanceOf(Applied.Refused.class);
        assertThat(once(engine, q, "m1", 1, 1000, T0 + 2).messageId()).isEqualTo("m1"); // the retry is sent
        assertThat(visible(engine, q, T0 + 3)).isEqualTo(1);
    }
}
