package io.hikyaku.cluster;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** When the replicated store may accept writes again (no Ratis: a fake log and leadership). */
class ResumeTest {

    private record Proposed(long callId, byte[] entry, CompletableFuture<Object> answered) {}

    private final List<Proposed> log = new CopyOnWriteArrayList<>();
    private final AtomicBoolean readyLeader = new AtomicBoolean(true);
    private final MemoryStore inner = new MemoryStore();
    /** Pipelining at once (pipelineAt 1): the tests need several entries in flight. */
    private final ReplicatedStore store = new ReplicatedStore(inner, 60_000, 1);

    ResumeTest() {
        store.start((callId, entry) -> {
            CompletableFuture<Object> answered = new CompletableFuture<>();
            log.add(new Proposed(callId, entry, answered));
            return answered;
        }, readyLeader::get);
    }

    private static StoreBatch put(String key) {
        return new StoreBatch().put(Keyspace.MESSAGES, key.getBytes(), key.getBytes());
    }

    private Proposed awaitProposed(int n) {
        TestCluster.awaitTrue(java.time.Duration.ofSeconds(5), () -> log.size() >= n, () -> "not proposed");
        return log.get(n - 1);
    }

    @Test
    void aFailedProposalStillInFlightKeepsWritesRefusedUntilRatisAnswersIt() {
        try {
            assertThat(store.resume()).isTrue();
            CompletableFuture<Void> first = store.write(put("a"));
            Proposed entry = awaitProposed(1);
            store.leadershipLost("test");
            assertThat(first).isCompletedExceptionally();
            assertThat(store.get(Keyspace.MESSAGES, "a".getBytes())).as("overlay dropped").isNull();
            assertThatThrownBy(() -> store.write(put("b")).join()).hasCauseInstanceOf(StoreException.class);
            // ready leader again, but the failed entry may still commit: not yet
            assertThat(store.resume()).isFalse();
            // it does commit (applied like any entry), and Ratis answers it
            store.apply(2, 7, entry.callId(), ByteBuffer.wrap(entry.entry()));
            entry.answered().complete(null);
            TestCluster.awaitTrue(java.time.Duration.ofSeconds(5), store::resume, () -> "resume stays false");
            // the reloaded engine would see it in the store: nothing can land on top of it any more
            assertThat(inner.get(Keyspace.MESSAGES, "a".getBytes())).isNotNull();
            assertThat(store.write(put("c"))).isNotDone();
        } finally {
            store.close();
        }
    }

    @Test
    void notTheReadyLeaderNoResumeAndAFailedEntryFailsEveryLaterOne() {
        try {
            readyLeader.set(false);
            assertThat(store.resume()).isFalse();
            assertThat(store.write(put("x"))).isCompletedExceptionally();
            readyLeader.set(true);
            assertThat(store.resume()).isTrue();
            CompletableFuture<Void> one = store.write(put("1"));
            Proposed first = awaitProposed(1);
            CompletableFuture<Void> two = store.write(put("2"));
            Proposed second = awaitProposed(2); // pipelined: a second entry in flight
            CompletableFuture<Void> three = store.write(put("3"));
            Proposed third = awaitProposed(3);
            second.answered().completeExceptionally(new IllegalStateException("not leader"));
            // the failed entry and every later one fail; the earlier one may still commit
            TestCluster.awaitTrue(java.time.Duration.ofSeconds(5), two::isDone, () -> "not failed");
            assertThat(two).isCompletedExceptionally();
            assertThat(three).isCompletedExceptionally();
            assertThat(one).isNotDone();
            store.apply(1, 3, first.callId(), ByteBuffer.wrap(first.entry()));
            first.answered().complete(null);
            assertThat(one).isCompletedWithValue(null);
            assertThat(store.resume()).as("the third entry is still in flight").isFalse();
            third.answered().completeExceptionally(new IllegalStateException("not leader"));
            TestCluster.awaitTrue(java.time.Duration.ofSeconds(5), store::resume, () -> "resume stays false");
            assertThat(inner.get(Keyspace.MESSAGES, "1".getBytes())).isNotNull();
            assertThat(inner.get(Keyspace.MESSAGES, "2".getBytes())).isNull();
        } finally {
            store.close();
        }
    }
}
