package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import io.hikyaku.journal.MemoryJournal;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal of the simulator's kind (a {@link MemoryJournal} with a store fault in it: a send whose
 * write failed, then the reload) plays back with {@code hikyaku replay} to the digest it recorded:
 * the replay repeats the fault, so the lost send is lost there too.
 */
class FaultJournalReplayTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    /** A disk-like store whose next write fails (not applied) once armed, then refuses until resumed. */
    private static final class FullDisk extends ForwardingStore {
        final MemoryStore memory = new MemoryStore();
        boolean armed;
        boolean fenced;

        @Override
        protected Store delegate() {
            return memory;
        }

        @Override
        public CompletableFuture<Void> write(StoreBatch batch) {
            if (!batch.isEmpty() && (armed || fenced)) {
                armed = false;
                fenced = true;
                return CompletableFuture.failedFuture(new StoreException("no space left on device"));
            }
            return memory.write(batch);
        }

        @Override
        public boolean resume() {
            fenced = false;
            return true;
        }

        @Override
        public boolean isEphemeral() {
            return false;
        }
    }

    @Test
    void aJournalWithARecordedStoreFaultReplaysToItsDigest() throws Exception {
        FullDisk disk = new FullDisk();
        MemoryJournal journal = new MemoryJournal("us-east-1", true, "rocksdb");
        long now = T0;
        QueueEngine engine = new QueueEngine(disk, "us-east-1", now);
        journal.loaded(now, engine);
        QueueRef q = new QueueRef("000000000000", "q");
        apply(engine, journal, new Command.CreateQueue(new CreateQueue(q.accountId(), null, "q",
                AttributeUpdate.of(Map.of()), null, ++now)));
        apply(engine, journal, new Command.SendMessage(q, message("kept", 1), ++now));

        journal.fault(0, false);
        disk.armed = true;
        assertThat(apply(engine, journal, new Command.SendMessage(q, message("lost", 2), ++now)).written())
                .isCompletedExceptionally();
        disk.resume();
        engine = new QueueEngine(disk, "us-east-1", ++now); // the recovery's reload
        journal.loaded(now, engine);
        apply(engine, journal, new Command.SendMessage(q, message("after", 3), ++now));
        apply(engine, journal, new Command.Advance(q, ++now));
        assertThat(engine.counts(q).visible()).isEqualTo(2);
        journal.stopped(engine);

        Path file = dir.resolve("seed.journal");
        journal.writeTo(file);
        ReplayRun replay = ReplayRun.of("--journal", file.toString());
        assertThat(replay.exit()).as(replay.out()).isZero();
        assertThat(replay.out()).contains("(2 loads)").contains("matches the digest the server recorded at stop");
        assertThat(replay.digest()).isEqualTo(engine.digest());
    }

    private static io.hikyaku.engine.Durable<?> apply(QueueEngine engine, MemoryJournal journal, Command<?> command) {
        journal.applied(command);
        return engine.apply(command).durable();
    }

    private static SendMessage message(String body, int n) {
        return new SendMessage(body, null, null, null, null, null, "000000000000",
                String.format("00000000-0000-0000-0000-%012d", n), null);
    }
}
