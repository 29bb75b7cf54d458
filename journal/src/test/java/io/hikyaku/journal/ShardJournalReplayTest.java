package io.hikyaku.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.EngineShard;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.command.Applied;
import io.hikyaku.engine.store.MemoryStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engine shards over one store, each with its own journal, as a server with
 * {@code --engine-shards 2 --journal} runs them: each journal, replayed alone into a store of its
 * own, reaches its shard's live state, though on the server the other shard's queues shared the
 * store (and raised the queue id floor a reload saw, and left keys a reload found).
 */
class ShardJournalReplayTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final EngineShard S0 = new EngineShard(0, 2);
    private static final EngineShard S1 = new EngineShard(1, 2);
    private static final String A0 = S0.firstAccount();
    private static final String A1 = S1.firstAccount();

    @TempDir
    Path dir;

    private long now = T0;
    private int ids;

    /** One shard as the server runs it: its engine, told to its journal command by command. */
    private final class Running {
        final EngineShard shard;
        final MemoryStore store;
        final JournalWriter journal;
        QueueEngine engine;

        Running(MemoryStore store, EngineShard shard, Path file) throws Exception {
            this.shard = shard;
            this.store = store;
            this.journal = new JournalWriter(file, "us-east-1", true, "memory");
            load();
        }

        void load() {
            engine = new QueueEngine(store, "us-east-1", ++now, Long.MAX_VALUE, QueueEngine.DEFAULT_INDEX_WINDOW, shard);
            journal.loaded(engine.appliedAt(), engine);
        }

        <R> Applied<R> apply(Command<R> c) {
            Applied<R> r = engine.apply(c);
            journal.applied(c);
            return r;
        }

        void create(String account, String name) {
            Applied<?> r = apply(new Command.CreateQueue(new CreateQueue(account, null, name,
                    AttributeUpdate.of(Map.of()), null, ++now)));
            assertThat(r.refused()).isFalse();
        }

        void send(QueueRef q, int n) {
            for (int i = 0; i < n; i++) {
                apply(new Command.SendMessage(q, new SendMessage("m" + i, null, null, null, null, null,
                        q.accountId(), String.format("00000000-0000-0000-0000-%012d", ++ids)), ++now));
            }
        }

        void receiveAndDeleteOne(QueueRef q) {
            List<ReceivedMessage> got = apply(new Command.ReceiveMessage(q,
                    new ReceiveMessages(3, 30, null, 7 + ids, ++now))).value();
            apply(new Command.DeleteMessage(q, got.get(0).receiptHandle(), ++now));
        }

        String stop() {
            String digest = engine.digest();
            journal.stopped(engine);
            return digest;
        }
    }

    @Test
    void eachShardsJournalReplayedAloneReachesThatShardsState() throws Exception {
        MemoryStore shared = new MemoryStore();
        Path base = dir.resolve("commands.journal");
        Running s0 = new Running(shared, S0, JournalFiles.of(base, S0));
        Running s1 = new Running(shared, S1, JournalFiles.of(base, S1));
        QueueRef a = new QueueRef(A0, "a");
        QueueRef b = new QueueRef(A1, "b");
        QueueRef gone = new QueueRef(A1, "gone");
        s0.create(A0, "a"); // id 2 (shard 0 takes the even ids above the floor)
        s1.create(A1, "b"); // 1
        s1.create(A1, "gone"); // 3
        s0.send(a, 12);
        s1.send(b, 8);
        s1.send(gone, 6);
        s0.receiveAndDeleteOne(a);
        s1.create(A1, "c"); // 5
        s0.apply(new Command.Tick(++now)); // stores shard 0's applied-at
        // shard 1 deletes a queue; before its tick removes the keys, shard 0 restarts and finds them
        s1.apply(new Command.DeleteQueue(gone, ++now));
        s0.load();
        assertThat(s0.engine.idFloor()).as("shard 1's ids count on the server's store").isEqualTo(5);
        s0.create(A0, "d"); // id 6; over a replay's store alone, without the recorded floor, 4
        s0.send(new QueueRef(A0, "d"), 3);
        // removes the record-less keys it found; within a second of the stored applied-at, so only a
        // batch with other writes stores it again: those deletes must not count (a replay has none)
        s0.apply(new Command.Tick(now += 5));
        s1.apply(new Command.Tick(now += 1));
        s1.send(b, 2);
        s1.receiveAndDeleteOne(b);
        s0.receiveAndDeleteOne(a);
        s0.apply(new Command.PurgeQueue(new QueueRef(A0, "d"), ++now));
        s1.load(); // a restart of shard 1 too
        assertThat(s1.engine.idFloor()).isEqualTo(6);
        s1.create(A1, "e"); // 7
        s1.apply(new Command.Tick(now += 1000)); // shard 0 stops with its purge's cleanup pending
        String live0 = s0.stop();
        String live1 = s1.stop();
        assertThat(live0).isNotEqualTo(live1);

        JournalReplay.Outcome r0 = JournalReplay.replay(JournalFiles.of(base, S0), kind -> new MemoryStore());
        JournalReplay.Outcome r1 = JournalReplay.replay(JournalFiles.of(base, S1), kind -> new MemoryStore());
        assertThat(r0.shard()).isEqualTo(S0);
        assertThat(r1.shard()).isEqualTo(S1);
        assertThat(r0.loads()).isEqualTo(2);
        assertThat(r1.loads()).isEqualTo(2);
        assertThat(r0.digest()).isEqualTo(live0);
        assertThat(r1.digest()).isEqualTo(live1);
        assertThat(r0.matches()).isTrue();
        assertThat(r1.matches()).isTrue();
        assertThat(JournalFiles.find(base)).containsExactly(JournalFiles.of(base, S0), JournalFiles.of(base, S1));
    }

    @Test
    void oneEnginesJournalKeepsItsNameAndReplaysAsTheOnlyShard() throws Exception {
        Path file = dir.resolve("one.journal");
        assertThat(JournalFiles.of(file, EngineShard.ONLY)).isEqualTo(file);
        Running only = new Running(new MemoryStore(), EngineShard.ONLY, file);
        QueueRef q = new QueueRef(A1, "q");
        only.create(A1, "q");
        only.send(q, 4);
        only.receiveAndDeleteOne(q);
        String live = only.stop();
        JournalReplay.Outcome r = JournalReplay.replay(file, kind -> new MemoryStore());
        assertThat(r.shard()).isEqualTo(EngineShard.ONLY);
        assertThat(r.digest()).isEqualTo(live);
        assertThat(r.matches()).isTrue();
        assertThat(JournalFiles.find(file)).containsExactly(file);
    }
}
