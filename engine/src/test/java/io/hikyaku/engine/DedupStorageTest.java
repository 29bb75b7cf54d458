package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How FIFO deduplication entries sit in the store: under sequence numbers, and the older text-keyed form. */
class DedupStorageTest {

    private final EngineFixture f = new EngineFixture();

    private List<byte[]> dedupKeys() {
        List<byte[]> keys = new ArrayList<>();
        f.store.scan(Keyspace.DEDUP, new byte[0], (k, v) -> keys.add(k));
        return keys;
    }

    @Test
    void entriesAreStoredUnderSequenceNumbersInSendOrder() {
        QueueRef q = f.createFifo("q.fifo", "ContentBasedDeduplication", "true");
        SendResult a = f.sendFifo(q, "body-a", "G", null);
        SendResult b = f.sendFifo(q, "body-b", "G", "explicit-id");
        List<byte[]> keys = dedupKeys();
        assertThat(keys).hasSize(2).allSatisfy(k -> {
            assertThat(k).hasSize(17);
            assertThat(Keys.dedupTag(k)).isEqualTo('D');
        });
        // stored under the message seq; clients see the wire form made from it (SendRules.wireSequenceNumber)
        assertThat(Keys.dedupSeqOf(keys.get(1))).isGreaterThan(Keys.dedupSeqOf(keys.get(0)));
        assertThat(new java.math.BigInteger(b.sequenceNumber())).isGreaterThan(new java.math.BigInteger(a.sequenceNumber()));

        f.restart();
        assertThat(f.sendFifo(q, "body-a", "G", null)).isEqualTo(a);
        assertThat(f.sendFifo(q, "other body", "G", "explicit-id")).isEqualTo(b);

        // expiry removes them from the store
        f.advance(QueueState.DEDUP_WINDOW_MS + 1);
        f.engine.tick(f.now);
        assertThat(dedupKeys()).isEmpty();
        assertThat(f.sendFifo(q, "body-a", "G", null)).isNotEqualTo(a);
    }

    @Test
    void perGroupScopeKeysWithAContentHashRoundTrip() {
        QueueRef q = f.createFifo("g.fifo", "ContentBasedDeduplication", "true", "DeduplicationScope", "messageGroup",
                "FifoThroughputLimit", "perMessageGroupId");
        SendResult g1 = f.sendFifo(q, "same body", "g1", null);
        SendResult g2 = f.sendFifo(q, "same body", "g2", null);
        assertThat(g2.messageId()).isNotEqualTo(g1.messageId());
        f.restart();
        assertThat(f.sendFifo(q, "same body", "g1", null)).isEqualTo(g1);
        assertThat(f.sendFifo(q, "same body", "g2", null)).isEqualTo(g2);
    }

    @Test
    void entriesInTheOlderTextKeyedFormAreLoadedHonouredAndRemovedUnderTheirKey() {
        QueueRef q = f.createFifo("old.fifo");
        SendResult sent = f.sendFifo(q, "body", "G", "old-id");
        long queueId = Keys.queueIdOf(dedupKeys().get(0));
        // rewrite the entry as an older server stored it: under its text key, in the version-1 value
        byte[] compactKey = dedupKeys().get(0);
        DedupEntry old = new DedupEntry("old-id", sent.messageId(), sent.sequenceNumber(), f.now + QueueState.DEDUP_WINDOW_MS);
        f.store.write(new StoreBatch().delete(Keyspace.DEDUP, compactKey)
                .put(Keyspace.DEDUP, Keys.dedup(queueId, "old-id"), old.encode()));

        f.restart();
        assertThat(f.sendFifo(q, "again", "G", "old-id")).isEqualTo(sent);
        SendResult fresh = f.sendFifo(q, "new", "G", "new-id");
        assertThat(dedupKeys()).extracting(Keys::dedupTag).containsExactlyInAnyOrder('d', 'D');

        f.advance(QueueState.DEDUP_WINDOW_MS + 1);
        f.engine.tick(f.now);
        assertThat(dedupKeys()).isEmpty(); // the older key is deleted under its text, the new one under its number
        assertThat(f.sendFifo(q, "again", "G", "old-id")).isNotEqualTo(sent);
        assertThat(fresh.sequenceNumber()).isNotNull();
    }

    @Test
    void aPurgeRemovesBothForms() {
        QueueRef q = f.createFifo("p.fifo");
        SendResult sent = f.sendFifo(q, "body", "G", "old-id");
        long queueId = Keys.queueIdOf(dedupKeys().get(0));
        DedupEntry old = new DedupEntry("old-id", sent.messageId(), sent.sequenceNumber(), f.now + QueueState.DEDUP_WINDOW_MS);
        f.store.write(new StoreBatch().delete(Keyspace.DEDUP, dedupKeys().get(0))
                .put(Keyspace.DEDUP, Keys.dedup(queueId, "old-id"), old.encode()));
        f.restart();
        f.sendFifo(q, "new", "G", "new-id");
        f.engine.apply(new Command.PurgeQueue(q, f.now)).durable();
        assertThat(f.engine.nextDeadline()).isZero(); // the store cleanup runs in the tick, in chunks
        f.engine.tick(f.now);
        assertThat(dedupKeys()).isEmpty();
    }
}
