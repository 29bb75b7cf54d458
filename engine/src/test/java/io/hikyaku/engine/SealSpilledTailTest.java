package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link Command.SealMessage} over a backlog past the index budget: the spilled tail is sealed from the store
 * like the indexed head, paged in sealed (also after a restart, which knows re-sealed values by their version),
 * and every re-sealed key is deleted with a full tombstone, so nothing of the plaintext can come back.
 */
class SealSpilledTailTest {

    private static final int BUDGET = 100;

    /** Counts the kinds of MESSAGES deletes. */
    private static final class Deletes extends ForwardingStore {
        final List<StoreBatch.Kind> kinds = new ArrayList<>();
        private final Store store;

        Deletes(Store store) {
            this.store = store;
        }

        @Override
        protected Store delegate() {
            return store;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            for (StoreBatch.Op op : batch.ops()) {
                if (op.space() == Keyspace.MESSAGES && op.kind() != StoreBatch.Kind.PUT) {
                    kinds.add(op.kind());
                }
            }
            return super.write(batch);
        }
    }

    @Test
    void aSealedBacklogDrainsSealedAndLeavesNoKey() {
        DiskLikeStore disk = new DiskLikeStore();
        Deletes store = new Deletes(disk);
        EngineFixture f = new EngineFixture();
        f.engine = new QueueEngine(store, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET);
        QueueRef q = f.create("q");
        List<String> sealed = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            f.send(q, "m" + i);
            sealed.add(SealedBody.PREFIX + "2:" + ("m" + i).length() + ":sealed-m" + i);
        }
        assertThat(f.engine.spilledMessages()).isEqualTo(200);

        long from = 1;
        int applied = 0;
        while (from >= 0) {
            StoredBodyPage page = f.engine.storedBodies(q, from, 50);
            for (StoredBodyPage.Entry e : page.messages()) {
                assertThat(e.sealed()).isFalse();
                String body = SealedBody.PREFIX + "2:" + e.body().length() + ":sealed-" + e.body();
                assertThat(f.engine.apply(new Command.SealMessage(q, e.seq(), e.messageId(), body, f.now)).value())
                        .isEqualTo(SealOutcome.SEALED);
                applied++;
            }
            from = page.next();
        }
        assertThat(applied).isEqualTo(300);
        assertThat(f.engine.spilledMessages()).isEqualTo(200); // nothing about the index changed

        f.advance(1);
        f.engine = new QueueEngine(store, "us-east-1", QueueState.INFLIGHT_LIMIT, f.now, BUDGET); // a restart
        assertThat(f.drain(q)).isEqualTo(sealed);
        assertThat(disk.count(Keyspace.MESSAGES)).isZero();
        assertThat(store.kinds).hasSize(300).containsOnly(StoreBatch.Kind.DELETE);
    }
}
