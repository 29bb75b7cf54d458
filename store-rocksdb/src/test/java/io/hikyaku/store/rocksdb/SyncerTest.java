package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.StoreException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Group commit in isolation, with a fake WAL sync we can hold and break. */
class SyncerTest {

    @Test
    void batchesWrittenDuringASyncShareTheNextOne() throws Exception {
        CountDownLatch firstSyncEntered = new CountDownLatch(1);
        CountDownLatch releaseFirstSync = new CountDownLatch(1);
        List<Long> syncedUpTo = new ArrayList<>();
        Syncer syncer = new Syncer(upTo -> {
            synchronized (syncedUpTo) {
                syncedUpTo.add(upTo);
            }
            firstSyncEntered.countDown();
            releaseFirstSync.await(10, TimeUnit.SECONDS);
        }, Durability.FSYNC, 10, 0);
        try {
            CompletableFuture<Void> first = written(syncer, 1);
            assertThat(firstSyncEntered.await(10, TimeUnit.SECONDS)).isTrue();
            List<CompletableFuture<Void>> group = new ArrayList<>();
            for (long seq = 2; seq <= 11; seq++) {
                group.add(written(syncer, seq));
            }
            assertThat(first).isNotDone();
            assertThat(group).noneMatch(CompletableFuture::isDone);
            releaseFirstSync.countDown();
            first.get(10, TimeUnit.SECONDS);
            CompletableFuture.allOf(group.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertThat(syncer.syncCount()).isEqualTo(2);
            synchronized (syncedUpTo) {
                assertThat(syncedUpTo).containsExactly(1L, 11L);
            }
        } finally {
            releaseFirstSync.countDown();
            syncer.stop();
        }
    }

    @Test
    void aFailedSyncFailsItsGroupWithStoreExceptionAndLaterSyncsWork() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(true);
        Syncer syncer = new Syncer(upTo -> {
            if (broken.get()) {
                throw new IOException("No space left on device");
            }
        }, Durability.FSYNC, 10, 0);
        try {
            CompletableFuture<Void> failed = written(syncer, 1);
            assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(StoreException.class).hasMessageContaining("No space left on device");
            broken.set(false);
            written(syncer, 2).get(10, TimeUnit.SECONDS);
        } finally {
            syncer.stop();
        }
    }

    @Test
    void batchModeAcknowledgesAtOnceAndSyncsOnlyWhenSomethingWasWritten() throws Exception {
        AtomicInteger syncs = new AtomicInteger();
        CountDownLatch synced = new CountDownLatch(1);
        Syncer syncer = new Syncer(upTo -> {
            syncs.incrementAndGet();
            synced.countDown();
        }, Durability.BATCH, 5, 0);
        try {
            Thread.sleep(50); // idle: several intervals pass without a write
            assertThat(syncs.get()).isZero();
            assertThat(written(syncer, 1)).isCompleted();
            assertThat(synced.await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            syncer.stop();
        }
    }

    @Test
    void writesAppliedBeforeASyncRideOnThatSync() throws Exception {
        AtomicInteger syncs = new AtomicInteger();
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        List<Long> syncedUpTo = new ArrayList<>();
        Syncer[] holder = new Syncer[1];
        Runnable apply = () -> {
            List<CompletableFuture<Void>> batch;
            synchronized (queued) {
                batch = new ArrayList<>(queued);
                queued.clear();
            }
            for (int i = 0; i < batch.size(); i++) {
                holder[0].written(100 + i, batch.get(i));
            }
        };
        Syncer syncer = new Syncer(upTo -> {
            syncs.incrementAndGet();
            synchronized (syncedUpTo) {
                syncedUpTo.add(upTo);
            }
        }, apply, Durability.FSYNC, 10, 0);
        holder[0] = syncer;
        try {
            List<CompletableFuture<Void>> mine = new ArrayList<>();
            synchronized (queued) {
                for (int i = 0; i < 3; i++) {
                    CompletableFuture<Void> f = new CompletableFuture<>();
                    mine.add(f);
                    queued.add(f);
                }
            }
            assertThat(mine).noneMatch(CompletableFuture::isDone);
            syncer.kick();
            CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertThat(syncs.get()).isEqualTo(1); // one sync for all three, not one to apply and one more
            synchronized (syncedUpTo) {
                assertThat(syncedUpTo).containsExactly(102L);
            }
        } finally {
            syncer.stop();
        }
    }

    @Test
    void aFailingBeforeSyncStepDoesNotEndTheSyncer() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Syncer syncer = new Syncer(upTo -> { }, () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("boom");
            }
        }, Durability.FSYNC, 10, 0);
        try {
            syncer.kick();
            written(syncer, 1).get(10, TimeUnit.SECONDS);
            assertThat(calls.get()).isGreaterThanOrEqualTo(1);
        } finally {
            syncer.stop();
        }
    }

    @Test
    void stopAppliesAndSyncsWhatWasQueued() throws Exception {
        AtomicInteger syncs = new AtomicInteger();
        CompletableFuture<Void> queued = new CompletableFuture<>();
        Syncer[] holder = new Syncer[1];
        AtomicBoolean applied = new AtomicBoolean();
        Syncer syncer = new Syncer(upTo -> syncs.incrementAndGet(), () -> {
            if (applied.compareAndSet(false, true)) {
                holder[0].written(1, queued);
            }
        }, Durability.FSYNC, 10, 0);
        holder[0] = syncer;
        syncer.stop();
        assertThat(queued).isCompleted();
        assertThat(syncs.get()).isEqualTo(1);
    }

    @Test
    void stopSyncsWhatIsOutstandingAndRefusesNewWork() throws Exception {
        AtomicInteger syncs = new AtomicInteger();
        Syncer syncer = new Syncer(upTo -> syncs.incrementAndGet(), Durability.FSYNC, 10, 0);
        CompletableFuture<Void> pending = written(syncer, 1);
        syncer.stop();
        assertThat(pending).isCompleted();
        assertThat(written(syncer, 2)).isCompletedExceptionally();
    }

    /** A write numbered {@code seq} handed to the syncer, with the future the store would acknowledge on. */
    private static CompletableFuture<Void> written(Syncer syncer, long seq) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        syncer.written(seq, future);
        return future;
    }
}
