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
 */
final class Syncer {

    /** Makes every batch written so far durable; throws if it could not. */
    interface WalSync {
        void syncWal(long upToSequence) throws Exception;
    }

    private record Pending(long sequence, CompletableFuture<Void> future) {}

    private final WalSync sync;
    private final Durability durability;
    private final long intervalNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private List<Pending> pending = new ArrayList<>();
    private long lastWritten;
    private long lastSynced;
    private boolean stopping;
    private long lastSyncStart = System.nanoTime();
    private final AtomicLong syncs = new AtomicLong();
    private final Thread thread;

    Syncer(WalSync sync, Durability durability, long intervalMillis, long startSequence) {
        this.sync = sync;
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

    /** Called by the writer after its batch is in the WAL; returns the future to acknowledge on. */
    CompletableFuture<Void> written(long sequence) {
        lock.lock();
        try {
            lastWritten = Math.max(lastWritten, sequence);
            if (durability != Durability.FSYNC) {
                return CompletableFuture.completedFuture(null);
            }
            if (stopping) {
                return CompletableFuture.failedFuture(new StoreException("store is closing"));
            }
            CompletableFuture<Void> future = new CompletableFuture<>();
            pending.add(new Pending(sequence, future));
            wake.signal();
            return future;
        } finally {
            lock.unlock();
        }
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
            lock.lock();
            try {
                waitForWork();
                group = pending;
                pending = new ArrayList<>();
                upTo = lastWritten;
                last = stopping;
            } finally {
                lock.unlock();
            }
            if (upTo > lastSynced || !group.isEmpty()) {
                syncAndComplete(group, upTo);
            } else {
                lastSyncStart = System.nanoTime(); // idle: nothing to sync, wait a full interval
            }
            if (last) {
                return;
            }
        }
    }

    private void waitForWork() {
        try {
            if (durability == Durability.FSYNC) {
                while (pending.isEmpty() && !stopping) {
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

    private void syncAndComplete(List<Pending> group, long upTo) {
        lastSyncStart = System.nanoTime();
        Throwable failure = null;
        try {
            sync.syncWal(upTo);
            lastSynced = upTo;
            syncs.incrementAndGet();
        } catch (Exception | Error e) {
            failure = e;
        }
        for (Pending p : group) {
            if (failure == null) {
                p.future().complete(null);
            } else {
                p.future().completeExceptionally(failure instanceof StoreException
                        ? failure : new StoreException("write-ahead log sync failed: " + failure.getMessage(), failure));
            }
        }
    }
}
