package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Several engines over one store, each owning the accounts that hash to it (EngineShard). */
class EngineShardTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final EngineShard S0 = new EngineShard(0, 2);
    private static final EngineShard S1 = new EngineShard(1, 2);
    /** An account on each shard of two. */
    private static final String A0 = S0.firstAccount();
    private static final String A1 = S1.firstAccount();

    private long now = T0;
    private int ids;

    @Test
    void eachShardNamesTheFirstTwelveDigitAccountItOwns() {
        for (int i = 0; i < 7; i++) {
            EngineShard shard = new EngineShard(i, 7);
            String account = shard.firstAccount();
            assertThat(account).hasSize(12).startsWith("1000000");
            assertThat(shard.owns(account)).isTrue();
            for (long n = 100_000_000_000L; n < Long.parseLong(account); n++) {
                assertThat(shard.owns(Long.toString(n))).as("a smaller account %d", n).isFalse();
            }
        }
        assertThat(EngineShard.ONLY.firstAccount()).isEqualTo("100000000000");
    }

    @Test
    void ownershipIsAStableHashOfTheAccountThatSpreadsAccounts() {
        // FNV-1a 32 of the UTF-8 bytes with a final avalanche, modulo the count: fixed here so that a
        // change (which would move accounts between shards) is noticed; typical ids spread over two
        assertThat(EngineShard.of("000000000000", 2)).isNotEqualTo(EngineShard.of("333333333333", 2));
        assertThat(EngineShard.of("000000000000", 2)).isEqualTo(Math.floorMod(fnv("000000000000"), 2));
        assertThat(EngineShard.of("123456789012", 7)).isEqualTo(Math.floorMod(fnv("123456789012"), 7));
        int[] per = new int[4];
        for (int i = 0; i < 4000; i++) {
            per[EngineShard.of(String.format("%012d", 111111111111L + i * 7919L), 4)]++;
        }
        for (int n : per) {
            assertThat(n).isBetween(800, 1200);
        }
        assertThat(EngineShard.of("anything", 1)).isZero();
        assertThatThrownBy(() -> new EngineShard(2, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int fnv(String s) {
        int h = 0x811c9dc5;
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x01000193;
        }
        h = (h ^ (h >>> 16)) * 0x85ebca6b;
        h = (h ^ (h >>> 13)) * 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    @Test
    void queueIdsOfShardsNeverMeetAndStayAboveEverythingStoredBefore() {
        assertThat(S0.nextQueueId(0)).isEqualTo(2);
        assertThat(S1.nextQueueId(0)).isEqualTo(1);
        assertThat(S0.nextQueueId(7)).isEqualTo(8);
        assertThat(S1.nextQueueId(7)).isEqualTo(9);
        assertThat(new EngineShard(2, 3).nextQueueId(9)).isEqualTo(11);
        assertThat(EngineShard.ONLY.nextQueueId(41)).isEqualTo(42);

        MemoryStore store = new MemoryStore();
        QueueEngine single = new QueueEngine(store, "us-east-1", T0);
        for (int i = 0; i < 5; i++) {
            create(single, A0, "old-" + i); // ids 1..5 in one engine
        }
        QueueEngine e0 = shard(store, S0);
        QueueEngine e1 = shard(store, S1);
        long id0 = create(e0, A0, "new");
        long id1 = create(e1, A1, "new");
        assertThat(id0).isEqualTo(6);
        assertThat(id1).isEqualTo(7);
        assertThat(create(e0, A0, "newer")).isEqualTo(8);
        assertThat(create(e1, A1, "newer")).isEqualTo(9);
        // a shard never creates a queue of an account it does not own (the router sends it elsewhere)
        assertThatThrownBy(() -> create(e0, A1, "stray")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void eachShardLoadsOnlyItsOwnAccountsAndOneEngineSeesThemAll() {
        MemoryStore store = new MemoryStore();
        QueueEngine e0 = shard(store, S0);
        QueueEngine e1 = shard(store, S1);
        QueueRef q0 = new QueueRef(A0, "orders");
        QueueRef q1 = new QueueRef(A1, "orders");
        create(e0, A0, "orders");
        create(e1, A1, "orders");
        for (int i = 0; i < 10; i++) {
            send(e0, q0, "a0-" + i);
            send(e1, q1, "a1-" + i);
            send(e1, q1, "a1-more-" + i);
        }
        e1.apply(new Command.DeleteQueue(new QueueRef(A1, "orders"), ++now)).durable(); // its keys are left for shard 1's cleanup
        create(e1, A1, "kept");
        send(e1, new QueueRef(A1, "kept"), "k");

        // a restart of both shards: each sees its own queues only, with every message
        QueueEngine r0 = shard(store, S0);
        QueueEngine r1 = shard(store, S1);
        assertThat(r0.listQueues(A0, null, null, null).queues()).hasSize(1);
        assertThat(r0.listQueues(A1, null, null, null).queues()).isEmpty();
        assertThat(r1.listQueues(A1, null, null, null).queues()).extracting(QueueInfo::name).containsExactly("kept");
        assertThat(EngineFixture.countsAt(r0, q0, now).visible()).isEqualTo(10);
        assertThatThrownBy(() -> r0.getQueue(new QueueRef(A1, "kept"))).isInstanceOf(EngineException.class);
        // shard 0 did not take shard 1's queue for a leftover: its messages are all there
        for (int i = 0; i < 5; i++) {
            r0.tick(now += 1000);
        }
        assertThat(EngineFixture.countsAt(r1, new QueueRef(A1, "kept"), now).visible()).isEqualTo(1);
        // the same store read by one engine: every queue, every message
        QueueEngine all = new QueueEngine(store, "us-east-1", now);
        assertThat(EngineFixture.countsAt(all, q0, now).visible()).isEqualTo(10);
        assertThat(EngineFixture.countsAt(all, new QueueRef(A1, "kept"), now).visible()).isEqualTo(1);
        List<ReceivedMessage> got = all.apply(new Command.ReceiveMessage(new QueueRef(A1, "kept"),
                new ReceiveMessages(10, null, null, 5, now))).durable().value();
        assertThat(got).extracting(ReceivedMessage::body).containsExactly("k");
    }

    @Test
    void aShardsDigestCoversItsOwnStateOnlyNotTheOtherShardsCommands() {
        // shard 0's commands alone over an empty store, and the same commands interleaved with shard
        // 1's over a shared store: the same state, so the same digest (what a replica of shard 0 checks)
        MemoryStore alone = new MemoryStore();
        QueueEngine solo = shard(alone, S0);
        MemoryStore shared = new MemoryStore();
        QueueEngine e0 = shard(shared, S0);
        QueueEngine e1 = shard(shared, S1);
        now = T0;
        ids = 0;
        runShard0(solo);
        now = T0;
        ids = 0;
        create(e1, A1, "noise");
        now = T0; // shard 0's commands carry the same times as alone (shard 1 keeps its own sequence)
        runShard0Interleaved(e0, e1);
        assertThat(e0.digest()).isEqualTo(solo.digest());
        assertThat(e1.digest()).isNotEqualTo(e0.digest());
    }

    private void runShard0(QueueEngine e0) {
        QueueRef q = new QueueRef(A0, "work");
        create(e0, A0, "work");
        for (int i = 0; i < 20; i++) {
            send(e0, q, "m" + i);
        }
        List<ReceivedMessage> got = e0.apply(new Command.ReceiveMessage(q, new ReceiveMessages(5, 30, null, 99, ++now))).durable().value();
        e0.apply(new Command.DeleteMessage(q, got.get(0).receiptHandle(), ++now)).durable();
    }

    private void runShard0Interleaved(QueueEngine e0, QueueEngine e1) {
        QueueRef q = new QueueRef(A0, "work");
        QueueRef noise = new QueueRef(A1, "noise");
        create(e0, A0, "work");
        for (int i = 0; i < 20; i++) {
            send(e0, q, "m" + i);
            e1.apply(new Command.SendMessage(noise, new SendMessage("n" + i, null, null, null, null, null, A1, "noise-" + i), now)).durable();
        }
        List<ReceivedMessage> got = e0.apply(new Command.ReceiveMessage(q, new ReceiveMessages(5, 30, null, 99, ++now))).durable().value();
        e0.apply(new Command.DeleteMessage(q, got.get(0).receiptHandle(), ++now)).durable();
    }

    private QueueEngine shard(Store store, EngineShard shard) {
        return new QueueEngine(store, "us-east-1", now, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW, shard);
    }

    private long create(QueueEngine engine, String account, String name) {
        engine.apply(new Command.CreateQueue(new CreateQueue(account, null, name, AttributeUpdate.of(java.util.Map.of()), null, ++now))).durable();
        return engine.queues.find(new QueueRef(account, name)).id;
    }

    private void send(QueueEngine engine, QueueRef q, String body) {
        engine.apply(new Command.SendMessage(q, new SendMessage(body, null, null, null, null, null, q.accountId(),
                "00000000-0000-0000-0000-" + String.format("%012d", ++ids)), ++now)).durable();
    }
}
