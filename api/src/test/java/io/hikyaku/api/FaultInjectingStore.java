package io.hikyaku.api;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store that fails on purpose, over a {@link MemoryStore} that plays the disk (it survives a
 * "restart": a new FaultInjectingStore over the same disk). It keeps the Store contract as a real
 * store does: a write that fails is not applied; an fsync that fails leaves the batch applied with an
 * unknown outcome; after either, every later write is refused until {@link #resume()} succeeds, which
 * it does once no fault is armed. Futures complete in write order on one thread, after an optional
 * delay (slow writes, so later commands run while earlier batches are not yet durable).
 *
 * <p>Faults: {@link #failNextWrites} (the next n writes fail, as ENOSPC on a WAL append does),
 * {@link #fillDisk}/{@link #freeDisk} (every write fails, and resume() too, until freed),
 * {@link #failNextFsync} (the next write is applied, its fsync fails), {@link #slow},
 * {@link #holdOutcomes} (no outcome reported until released: a failure not yet known).
 */
final class FaultInjectingStore extends ForwardingStore {

    private final MemoryStore disk;
    private final ExecutorService completer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fault-store-completer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger failWrites = new AtomicInteger();
    private volatile boolean diskFull;
    private volatile boolean failFsync;
    private volatile long delayMicros;
    /** While not done, no write's outcome is reported ({@link #holdOutcomes}). */
    private volatile CompletableFuture<Void> outcomes = CompletableFuture.completedFuture(null);
    /** Fail-stop state of the contract: set by a failure, cleared by resume(). */
    private volatile StoreException failed;
    final AtomicLong writes = new AtomicLong();
    final AtomicLong injected = new AtomicLong();

    FaultInjectingStore(MemoryStore disk) {
        this.disk = disk;
    }

    @Override
    protected Store delegate() {
        return disk;
    }

    void failNextWrites(int n) {
        failWrites.set(n);
    }

    void fillDisk() {
        diskFull = true;
    }

    void freeDisk() {
        diskFull = false;
    }

    void failNextFsync() {
        failFsync = true;
    }

    void slow(long micros) {
        delayMicros = micros;
    }

    /** No outcome is reported until {@link #releaseOutcomes} (writes are still applied or refused at once). */
    void holdOutcomes() {
        outcomes = new CompletableFuture<>();
    }

    void releaseOutcomes() {
        outcomes.complete(null);
    }

    boolean healthy() {
        return failed == null;
    }

    @Override
    public synchronized CompletableFuture<Void> write(StoreBatch batch) {
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        writes.incrementAndGet();
        StoreException outcome = null;
        if (failed != null) {
            outcome = new StoreException("not written: earlier failure (" + failed.getMessage() + ")");
        } else if (diskFull || failWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            outcome = new StoreException("injected: no space left on device");
            failed = outcome;
            injected.incrementAndGet();
        } else {
            disk.write(batch); // applied: reads see it at once, as RocksDB's memtable does
            if (failFsync) {
                failFsync = false;
                outcome = new StoreException("injected: fsync failed", null, true);
                failed = outcome;
                injected.incrementAndGet();
            }
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        StoreException result = outcome;
        long delay = delayMicros;
        CompletableFuture<Void> held = outcomes;
        completer.execute(() -> {
            held.join();
            if (delay > 0) {
                try {
                    TimeUnit.MICROSECONDS.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (result == null) {
                future.complete(null);
            } else {
                future.completeExceptionally(result);
            }
        });
        return future;
    }

    @Override
    public synchronized boolean resume() {
        if (failed == null) {
            return true;
        }
        if (diskFull) {
            return false;
        }
        failed = null; // the disk (a MemoryStore) holds every applied batch: all durable now
        return true;
    }

    @Override
    public boolean isEphemeral() {
        return false;
    }

    /** A "crash": this store object goes, the disk stays. */
    @Override
    public void close() {
        completer.shutdown();
    }
}
