package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only a receive's batch is lazy (answered before it is durable); everything a client is told is
 * done (send, delete, visibility change, a FIFO send with its dedup entry) waits for its sync.
 */
class LazyBatchTest {

    /** Records whether each non-empty batch was lazy. */
    private static final class RecordingStore implements Store {
        final MemoryStore inner = new MemoryStore();
        final List<Boolean> lazy = new ArrayList<>();

        @Override
        public byte[] get(Keyspace space, byte[] key) {
            return inner.get(space, key);
        }

        @Override
        public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
            inner.scan(space, prefix, visitor);
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            if (!batch.isEmpty()) {
                lazy.add(batch.isLazy());
            }
            return inner.write(batch);
        }

        @Override
        public boolean isEphemeral() {
            return false;
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private final RecordingStore store = new RecordingStore();
    private final QueueEngine engine = new QueueEngine(store, "us-east-1");
    private long nonce = 1;

    private ReceivedMessage receiveOne(QueueRef q, long now) {
        List<ReceivedMessage> got = engine.receiveMessages(q, new ReceiveMessages(1, 30, null, ++nonce, now)).value();
        assertThat(got).hasSize(1);
        return got.get(0);
    }

    @Test
    void onlyReceivesAreLazy() {
        long now = EngineFixture.T0;
        QueueRef q = engine.createQueue(new CreateQueue(EngineFixture.ACCOUNT, null, "q", AttributeUpdate.of(
                java.util.Map.of()), null, now)).value().ref();
        store.lazy.clear();

        engine.sendMessage(q, new SendMessage("a", null, null, null, null, null, EngineFixture.ACCOUNT,
                "00000000-0000-0000-0000-000000000001"), now);
        assertThat(store.lazy).as("send").containsExactly(false);

        ReceivedMessage m = receiveOne(q, now);
        assertThat(store.lazy).as("receive").containsExactly(false, true);

        engine.changeMessageVisibility(q, m.receiptHandle(), 0, now);
        assertThat(store.lazy).as("visibility change").containsExactly(false, true, false);

        m = receiveOne(q, now);
        engine.deleteMessage(q, m.receiptHandle(), now);
        assertThat(store.lazy).as("delete").containsExactly(false, true, false, true, false);
    }

    @Test
    void aFifoReceiveIsLazyAndAFifoSendIsNot() {
        long now = EngineFixture.T0;
        QueueRef q = engine.createQueue(new CreateQueue(EngineFixture.ACCOUNT, null, "q.fifo", AttributeUpdate.of(
                java.util.Map.of("FifoQueue", "true")), null, now)).value().ref();
        store.lazy.clear();
        engine.sendMessage(q, new SendMessage("a", null, null, null, "g", "d1", EngineFixture.ACCOUNT,
                "00000000-0000-0000-0000-000000000001"), now);
        receiveOne(q, now);
        assertThat(store.lazy).containsExactly(false, true);
    }
}
