package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.StoreException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one thread that fsyncs the WAL. Writers apply their batch unsynced and, for FSYNC durability,
 * hand over a future; each sync completes every future of batches written before it began, so
 * concurrent requests share one fsync (group commit). For BATCH durability it syncs on a timer.
 * "Sequence" here is the store's {@link BatchNumber}: it only has to grow in WAL order.
 *
 * <p>A store may also leave its writes queued and {@link #kick} the syncer instead: then the
 * {@code beforeSync} step (the store's) applies them, registering their futures, right before the
 * syncer takes the group it is about to sync, so those writes ride on that very sync.
 */
final class Syncer {

    /** Makes every batch written so far durable; throws if it could not. */
    interface WalSync {
        void syncWal(long upToSequence) throws Exception;
    }

    private record Pending(long sequence, CompletableFuture<Void> future) {}

    private final WalSync sync;
    private final Runnable beforeSync;
    private final Durability durability;
    private final long intervalNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private List<Pending> pending = new ArrayList<>();
    private long lastWritten;
    private long lastSynced;
    private boolean stopping;
    /** Writes were queued for {@code beforeSync} to apply (FSYNC durability). */
    private boolean kicked;
    /** When the first write since the last round was queued or handed over (nanoTime; 0: none yet). */
    private long firstWaiting;
    private long lastSyncStart = System.nanoTime();
    private final AtomicLong syncs = new AtomicLong();
    /** Told each sync's group size and duration (metrics); set once the store is open. */
    private volatile SyncObserver observer = SyncObserver.NONE;
    private final Thread thread;

    Syncer(WalSync sync, Durability durability, long intervalMillis, long startSequence) {
        this(sync, () -> { }, durability, intervalMillis, startSequence);
    }

    Syncer(WalSync sync, Runnable beforeSync, Durability durability, long intervalMillis, long startSequence) {
        this.sync = sync;
        this.beforeSync = beforeSync;
        this.durability = durability;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.lastWritten = startSequence;
        this.lastSynced = startSequence;
        this.thread = new Thread(this::run, "hikyaku-wal-sync");
        this.thread.setDaemon(true);
        if (durability != Durability.NONE) {
            thread.start();
        }
    }

    /**
     * Called once the batch numbered {@code sequence} is in the WAL: {@code future} completes when a
     * sync covers it (at once for levels other than FSYNC).
     */
    void written(long sequence, CompletableFuture<Void> future) {
        lock.lock();
        try {
            lastWritten = Math.max(lastWritten, sequence);
            if (durability != Durability.FSYNC) {
                future.complete(null);
            } else if (stopping && !thread.equals(Thread.currentThread())) {
                // Applied, but the last sync has run: it may or may not be on disk.
                future.completeExceptionally(new StoreException("store is closing", null, true));
            } else {
                pending.add(new Pending(sequence, future));
                if (firstWaiting == 0) {
                    firstWaiting = System.nanoTime();
                }
                wake.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes were queued: the syncer wakes, and its {@code beforeSync} step applies them. */
    void kick() {
        lock.lock();
        try {
            kicked = true;
            if (firstWaiting == 0) {
                firstWaiting = System.nanoTime();
            }
            wake.signal();
        } finally {
            lock.unlock();
        }
    }

    void observe(SyncObserver value) {
        observer = value == null ? SyncObserver.NONE : value;
    }

    long syncCount() {
        return syncs.get();
    }

    /** Syncs what is outstanding, completes every future, and ends the thread. */
    void stop() {
        lock.lock();
        try {
            stopping = true;
            wake.signal();
        } finally {
            lock.unlock();
        }
        if (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        while (true) {
            List<Pending> group;
            long upTo;
            boolean last;
            long waitingSince;
            lock.lock();
            try {
                waitForWork();
                kicked = false;
                waitingSince = firstWaiting;
                firstWaiting = 0;
            } finally {
                lock.unlock();
            }
            long started = System.nanoTime();
            runBeforeSync();
            long wrote = System.nanoTime() - started;
            lock.lock();
            try {
                group = pending;
                pending = new ArrayList<>();
                upTo = lastWritten;
                last = stopping;
            } finally {
                lock.unlock();
            }
            if (upTo > lastSynced || !group.isEmpty()) {
                syncAndComplete(group, upTo, waitingSince == 0 ? 0 : Math.max(0, started - waitingSince), wrote);
            } else {
                lastSyncStart = System.nanoTime(); // idle: nothing to sync, wait a full interval
            }
            if (last) {
                return;
            }
        }
    }

    /** The store's step; whatever it throws must not end the only thread that completes futures. */
    private void runBeforeSync() {
        try {
            beforeSync.run();
        } catch (RuntimeException | Error e) {
            org.slf4j.LoggerFactory.getLogger(Syncer.class).error("Applying queued writes failed", e);
        }
    }

    private void waitForWork() {
        try {
            if (durability == Durability.FSYNC) {
                while (pending.isEmpty() && !kicked && !stopping) {
                    wake.await();
                }
            } else {
                // Start to start: a slow sync does not stretch the loss window by a whole interval.
                long left = lastSyncStart + intervalNanos - System.nanoTime();
                while (left > 0 && !stopping) {
                    left = wake.awaitNanos(left);
                }
            }
        } catch (InterruptedException e) {
            stopping = true;
        }
    }

    private void syncAndComplete(List<Pending> group, long upTo, long waited, long wrote) {
        long started = System.nanoTime();
        lastSyncStart = started;
        Throwable failure = null;
        try {
            sync.syncWal(upTo);
            lastSynced = upTo;
            syncs.incrementAndGet();
        } catch (Exception | Error e) {
            failure = e;
        }
        long syncedAt = System.nanoTime();
        if (failure == null) {
            observer.synced(group.size(), syncedAt - started);
        } else {
            org.slf4j.LoggerFactory.getLogger(Syncer.class).error("Write-ahead log sync failed; {} write(s) fail", group.size(), failure);
        }
        for (Pending p : group) {
            if (failure == null) {
                p.future().complete(null);
            } else {
                p.future().completeExceptionally(failure instanceof StoreException
                        ? failure : new StoreException("write-ahead log sync failed: " + failure.getMessage(), failure, true));
            }
        }
        if (failure == null && durability == Durability.FSYNC) {
            observer.round(group.size(), waited, wrote, syncedAt - started, System.nanoTime() - syncedAt);
        }
    }
}
