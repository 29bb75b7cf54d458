package io.hikyaku.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SealOutcome;
import io.hikyaku.engine.SealedBody;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.StoredBodyPage;
import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link Command.SealMessage}: a stored plaintext body becomes the sealed one and nothing else about the message
 * changes; a message gone, replaced or sealed already is left alone; the same commands give the same state (also
 * through the journal's codec); and a re-sealed message's key, written twice, is deleted with a full tombstone.
 */
class SealMessageTest {

    private static final String ACCOUNT = "123456789012";
    private static final long T0 = 1_800_000_000_000L;

    /** Keeps every batch written. */
    private static final class Batches extends ForwardingStore {
        final List<StoreBatch> written = new ArrayList<>();
        private final Store store;

        Batches(Store store) {
            this.store = store;
        }

        @Override
        protected Store delegate() {
            return store;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            written.add(batch);
            return super.write(batch);
        }

        List<StoreBatch.Kind> messageDeletes() {
            List<StoreBatch.Kind> kinds = new ArrayList<>();
            for (StoreBatch b : written) {
                for (StoreBatch.Op op : b.ops()) {
                    if (op.space() == Keyspace.MESSAGES && op.kind() != StoreBatch.Kind.PUT) {
                        kinds.add(op.kind());
                    }
                }
            }
            return kinds;
        }
    }

    /** What the api would store for {@code plain}: the sealed marker, a size, and a stand-in for the ciphertext. */
    private static String sealed(String plain) {
        return SealedBody.PREFIX + "2:" + plain.length() + ":c2VhbGVk" + Integer.toHexString(plain.hashCode());
    }

    private static QueueRef create(QueueEngine engine, String name, long now, String... kv) {
        Map<String, String> attrs = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            attrs.put(kv[i], kv[i + 1]);
        }
        return engine.apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, name, AttributeUpdate.of(attrs), null, now)))
                .value().ref();
    }

    private static SendMessage message(String id, String body) {
        return new SendMessage(body, Map.of("note", new MessageAttribute("String", "attr of " + id, null)), "Root=1-trace",
                null, null, null, "AIDASENDER", id);
    }

    private static List<ReceivedMessage> receive(QueueEngine engine, QueueRef q, int vt, long nonce, long now) {
        return receive(engine, q, 10, vt, nonce, now);
    }

    private static List<ReceivedMessage> receive(QueueEngine engine, QueueRef q, int max, int vt, long nonce, long now) {
        return engine.apply(new Command.ReceiveMessage(q, new ReceiveMessages(max, vt, null, nonce, now))).value();
    }

    /** Seals every plaintext message of {@code q} as the reencrypt command does, in pages of {@code size}. */
    private static List<SealOutcome> sealAll(QueueEngine engine, QueueRef q, int size, long now) {
        List<SealOutcome> outcomes = new ArrayList<>();
        long from = 1;
        while (from >= 0) {
            StoredBodyPage page = engine.storedBodies(q, from, size);
            for (StoredBodyPage.Entry e : page.messages()) {
                if (e.sealed()) {
                    outcomes.add(SealOutcome.ALREADY_SEALED);
                } else {
                    outcomes.add(engine.apply(new Command.SealMessage(q, e.seq(), e.messageId(), sealed(e.body()), now))
                            .value());
                }
            }
            from = page.next();
        }
        return outcomes;
    }

    @Test
    void plaintextBodiesAreReplacedAndEverythingElseStays() {
        QueueEngine engine = new QueueEngine(new MemoryStore(), "us-east-1");
        QueueRef q = create(engine, "q", T0);
        for (int i = 1; i <= 3; i++) {
            engine.apply(new Command.SendMessage(q, message("m" + i, "plain " + i), T0 + i));
        }
        ReceivedMessage first = receive(engine, q, 1, 30, 11, T0 + 10).get(0); // in flight, received once
        engine.apply(new Command.SendMessage(q, new SendMessage("late", null, null, 900, null, null, null, "m4"), T0 + 11));

        assertThat(sealAll(engine, q, 2, T0 + 20)).containsExactly(SealOutcome.SEALED, SealOutcome.SEALED,
                SealOutcome.SEALED, SealOutcome.SEALED);
        StoredBodyPage page = engine.storedBodies(q, 1, 10);
        assertThat(page.messages()).allMatch(StoredBodyPage.Entry::sealed).allMatch(e -> e.attributes().isEmpty());
        assertThat(page.messages()).extracting(StoredBodyPage.Entry::messageId).containsExactly("m1", "m2", "m3", "m4");
        assertThat(engine.counts(q).notVisible()).isEqualTo(1); // the visibility of the one in flight is untouched
        assertThat(engine.counts(q).delayed()).isEqualTo(1);

        List<ReceivedMessage> now = receive(engine, q, 300, 12, T0 + 21);
        assertThat(now).extracting(ReceivedMessage::messageId).containsExactly("m2", "m3");
        assertThat(now).extracting(ReceivedMessage::body).containsExactly(sealed("plain 2"), sealed("plain 3"));
        assertThat(now).allSatisfy(m -> {
            assertThat(m.awsTraceHeader()).isEqualTo("Root=1-trace");
            assertThat(m.senderId()).isEqualTo("AIDASENDER");
            assertThat(m.sentTimestamp()).isLessThan(T0 + 10);
        });
        List<ReceivedMessage> again = receive(engine, q, 30, 13, T0 + 41_000); // m1's visibility has run out
        assertThat(again).extracting(ReceivedMessage::messageId).containsExactly("m1");
        assertThat(again.get(0).approximateReceiveCount()).isEqualTo(2);
        assertThat(again.get(0).sentTimestamp()).isEqualTo(first.sentTimestamp());
        assertThat(again.get(0).approximateFirstReceiveTimestamp()).isEqualTo(first.approximateFirstReceiveTimestamp());
    }

    @Test
    void pagesOfBigBodiesEndByTheirSize() {
        QueueEngine engine = new QueueEngine(new MemoryStore(), "us-east-1");
        QueueRef q = create(engine, "q", T0);
        String big = "x".repeat(1024 * 1024 - 100);
        for (int i = 1; i <= 12; i++) {
            engine.apply(new Command.SendMessage(q, new SendMessage(big, null, null, null, null, null, null, "m" + i), T0 + i));
        }
        StoredBodyPage first = engine.storedBodies(q, 1, 1000);
        assertThat(first.messages().size()).isEqualTo(9); // ends with the value that reaches 8 MiB
        StoredBodyPage second = engine.storedBodies(q, first.next(), 1000);
        assertThat(second.messages().size()).isEqualTo(3);
        assertThat(second.next()).isEqualTo(-1);
    }

    @Test
    void fifoMessagesKeepTheirSequenceNumberGroupAndDeduplication() {
        QueueEngine engine = new QueueEngine(new MemoryStore(), "us-east-1");
        QueueRef q = create(engine, "q.fifo", T0, "FifoQueue", "true");
        String seq = engine.apply(new Command.SendMessage(q, new SendMessage("plain", null, null, null, "g", "d1", null, "m1"),
                T0 + 1)).value().sequenceNumber();
        assertThat(sealAll(engine, q, 10, T0 + 2)).containsExactly(SealOutcome.SEALED);
        // the deduplication entry still answers for the original send
        assertThat(engine.apply(new Command.SendMessage(q, new SendMessage("plain", null, null, null, "g", "d1", null, "m2"),
                T0 + 3)).value().messageId()).isEqualTo("m1");
        ReceivedMessage m = receive(engine, q, 30, 1, T0 + 4).get(0);
        assertThat(m.messageId()).isEqualTo("m1");
        assertThat(m.sequenceNumber()).isEqualTo(seq);
        assertThat(m.groupId()).isEqualTo("g");
        assertThat(m.deduplicationId()).isEqualTo("d1");
        assertThat(m.body()).isEqualTo(sealed("plain"));
    }

    @Test
    void aMessageGoneReplacedOrSealedAlreadyIsLeftAlone() {
        Batches store = new Batches(new MemoryStore());
        QueueEngine engine = new QueueEngine(store, "us-east-1");
        QueueRef q = create(engine, "q", T0);
        engine.apply(new Command.SendMessage(q, message("m1", "one"), T0 + 1));
        engine.apply(new Command.SendMessage(q, message("m2", "two"), T0 + 2));
        StoredBodyPage page = engine.storedBodies(q, 1, 10);
        long seq1 = page.messages().get(0).seq();
        long seq2 = page.messages().get(1).seq();

        assertThat(engine.apply(new Command.SealMessage(q, seq1, "m1", sealed("one"), T0 + 3)).value()).isEqualTo(SealOutcome.SEALED);
        int batches = store.written.size();
        assertThat(engine.apply(new Command.SealMessage(q, seq1, "m1", sealed("one"), T0 + 4)).value())
                .isEqualTo(SealOutcome.ALREADY_SEALED);
        assertThat(engine.apply(new Command.SealMessage(q, seq2, "another-id", sealed("two"), T0 + 5)).value())
                .isEqualTo(SealOutcome.GONE);
        assertThat(engine.apply(new Command.SealMessage(q, 999, "m9", sealed("x"), T0 + 6)).value()).isEqualTo(SealOutcome.GONE);
        assertThat(engine.apply(new Command.SealMessage(new QueueRef(ACCOUNT, "nope"), seq2, "m2", sealed("two"), T0 + 7))
                .value()).isEqualTo(SealOutcome.GONE);
        Applied<SealOutcome> notSealed = engine.apply(new Command.SealMessage(q, seq2, "m2", "plain again", T0 + 8));
        assertThat(notSealed.refused()).isTrue();
        assertThat(store.written).hasSize(batches); // none of them wrote anything
        assertThat(engine.storedBodies(q, 1, 10).messages()).extracting(StoredBodyPage.Entry::body)
                .containsExactly(sealed("one"), "two");

        // deleted by its consumer
        String handle = receive(engine, q, 30, 5, T0 + 9).stream().filter(m -> m.messageId().equals("m2")).findFirst()
                .orElseThrow().receiptHandle();
        engine.apply(new Command.DeleteMessage(q, handle, T0 + 10));
        assertThat(engine.apply(new Command.SealMessage(q, seq2, "m2", sealed("two"), T0 + 11)).value()).isEqualTo(SealOutcome.GONE);

        // purged (the keys wait for their cleanup) and a deleted queue
        QueueRef p = create(engine, "p", T0 + 12);
        engine.apply(new Command.SendMessage(p, message("p1", "purged"), T0 + 13));
        long pseq = engine.storedBodies(p, 1, 10).messages().get(0).seq();
        engine.apply(new Command.PurgeQueue(p, T0 + 14));
        assertThat(engine.storedBodies(p, 1, 10).messages()).isEmpty();
        assertThat(engine.apply(new Command.SealMessage(p, pseq, "p1", sealed("purged"), T0 + 15)).value()).isEqualTo(SealOutcome.GONE);
        QueueRef d = create(engine, "d", T0 + 16);
        engine.apply(new Command.SendMessage(d, message("d1", "deleted"), T0 + 17));
        long dseq = engine.storedBodies(d, 1, 10).messages().get(0).seq();
        engine.apply(new Command.DeleteQueue(d, T0 + 18));
        assertThat(engine.apply(new Command.SealMessage(d, dseq, "d1", sealed("deleted"), T0 + 19)).value()).isEqualTo(SealOutcome.GONE);
    }

    @Test
    void theSameCommandsGiveTheSameStateAlsoReplayedFromTheirRecords() {
        List<Command<?>> applied = new ArrayList<>();
        QueueEngine first = new QueueEngine(new MemoryStore(), "us-east-1");
        QueueRef q = create(first, "q", T0);
        applied.add(new Command.CreateQueue(new CreateQueue(ACCOUNT, null, "q", AttributeUpdate.of(Map.of()), null, T0)));
        for (int i = 1; i <= 5; i++) {
            Command<?> send = new Command.SendMessage(q, message("m" + i, "body " + i), T0 + i);
            first.apply(send);
            applied.add(send);
        }
        Command<?> receive = new Command.ReceiveMessage(q, new ReceiveMessages(2, 60, null, 3, T0 + 10));
        first.apply(receive);
        applied.add(receive);
        for (StoredBodyPage.Entry e : first.storedBodies(q, 1, 1000).messages()) {
            Command<?> seal = new Command.SealMessage(q, e.seq(), e.messageId(), sealed(e.body()), T0 + 20);
            first.apply(seal);
            applied.add(seal);
        }

        QueueEngine second = new QueueEngine(new MemoryStore(), "us-east-1");
        QueueEngine replayed = new QueueEngine(new MemoryStore(), "us-east-1");
        for (Command<?> c : applied) {
            second.apply(c);
            replayed.apply(CommandCodec.decode(CommandCodec.encode(c)));
        }
        assertThat(second.digest()).isEqualTo(first.digest());
        assertThat(replayed.digest()).isEqualTo(first.digest());
    }

    @Test
    void aResealedMessageIsDeletedWithAFullTombstoneBeforeAndAfterAReload() {
        MemoryStore memory = new MemoryStore();
        Batches store = new Batches(memory);
        QueueEngine engine = new QueueEngine(store, "us-east-1");
        QueueRef q = create(engine, "q", T0);
        engine.apply(new Command.SendMessage(q, message("m1", "one"), T0 + 1));
        engine.apply(new Command.SendMessage(q, message("m2", "two"), T0 + 2));
        engine.apply(new Command.SendMessage(q, message("m3", "never sealed"), T0 + 3));
        List<StoredBodyPage.Entry> stored = engine.storedBodies(q, 1, 10).messages();
        for (StoredBodyPage.Entry e : stored.subList(0, 2)) {
            engine.apply(new Command.SealMessage(q, e.seq(), e.messageId(), sealed(e.body()), T0 + 4));
        }
        for (ReceivedMessage m : receive(engine, q, 30, 1, T0 + 5)) {
            if (m.messageId().equals("m1") || m.messageId().equals("m3")) {
                engine.apply(new Command.DeleteMessage(q, m.receiptHandle(), T0 + 6));
            }
        }
        assertThat(store.messageDeletes()).containsExactlyInAnyOrder(StoreBatch.Kind.DELETE, StoreBatch.Kind.DELETE_ONCE_WRITTEN);

        store.written.clear();
        QueueEngine reloaded = new QueueEngine(store, "us-east-1", T0 + 60_000); // m2 is visible again
        List<ReceivedMessage> got = receive(reloaded, q, 30, 2, T0 + 60_001);
        assertThat(got).extracting(ReceivedMessage::messageId).containsExactly("m2");
        assertThat(got.get(0).body()).isEqualTo(sealed("two"));
        reloaded.apply(new Command.DeleteMessage(q, got.get(0).receiptHandle(), T0 + 60_002));
        assertThat(store.messageDeletes()).containsExactly(StoreBatch.Kind.DELETE);

        // a purge's cleanup knows it from the stored value
        engine = reloaded;
        reloaded.apply(new Command.SendMessage(q, message("m4", "four"), T0 + 60_003));
        reloaded.apply(new Command.SendMessage(q, message("m5", "five"), T0 + 60_004));
        StoredBodyPage.Entry e4 = reloaded.storedBodies(q, 1, 10).messages().get(0);
        reloaded.apply(new Command.SealMessage(q, e4.seq(), e4.messageId(), sealed(e4.body()), T0 + 60_005));
        store.written.clear();
        reloaded.apply(new Command.PurgeQueue(q, T0 + 60_006));
        for (int i = 0; i < 5; i++) {
            reloaded.apply(new Command.Tick(T0 + 60_007 + i));
        }
        assertThat(store.messageDeletes()).containsExactlyInAnyOrder(StoreBatch.Kind.DELETE, StoreBatch.Kind.DELETE_ONCE_WRITTEN);
    }
}
