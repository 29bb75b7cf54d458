package io.hikyaku.simulation;

import io.hikyaku.engine.store.ForwardingStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import java.util.concurrent.CompletableFuture;

/**
 * The store as the simulated engine sees it: a pass-through to the real store (the "disk": a
 * {@code MemoryStore} or a {@code RocksDbStore}) that fails writes when the simulation says so, and
 * completes every future before {@code write} returns (no threads: the run stays deterministic).
 *
 * <p>It keeps the Store contract the way a real store does. A failed write is not applied (ENOSPC
 * on the WAL); a failed fsync leaves its batch applied with an unknown outcome. After either, every
 * later write is refused (not applied) until {@link #resume()}. A fault is armed for one command:
 * {@link #arm} says which of the command's writes fails ({@code skip} writes pass first) and how;
 * {@link #endCommand} disarms it and reports what happened to the command's writes.
 */
final class SimStore extends ForwardingStore {

    enum Fault { WRITE, FSYNC }

    /** What happened to one command's writes. */
    record Outcome(boolean failed, boolean refused) {
        /** Every write of the command is on the disk (possibly with a failed fsync: the api then answers success). */
        boolean applied() {
            return !refused;
        }
    }

    private Store disk;
    private Fault armed;
    private int skip;
    private StoreException failedWith;
    private boolean failedInCommand;
    private boolean refusedInCommand;
    long writes;
    long injected;

    SimStore(Store disk) {
        this.disk = disk;
    }

    /** Replaces the disk (a reopened RocksDB store after a crash). */
    void disk(Store reopened) {
        this.disk = reopened;
    }

    Store disk() {
        return disk;
    }

    @Override
    protected Store delegate() {
        return disk;
    }

    void arm(Fault fault, int skipWrites) {
        armed = fault;
        skip = skipWrites;
    }

    /** Starts a command: forgets the previous command's outcome. */
    void beginCommand() {
        failedInCommand = false;
        refusedInCommand = false;
    }

    Outcome endCommand() {
        armed = null;
        return new Outcome(failedInCommand, refusedInCommand);
    }

    boolean fenced() {
        return failedWith != null;
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        writes++;
        if (failedWith != null) {
            failedInCommand = true;
            refusedInCommand = true;
            return CompletableFuture.failedFuture(new StoreException("not written: earlier failure"));
        }
        if (armed != null && skip-- == 0) {
            Fault fault = armed;
            armed = null;
            injected++;
            failedInCommand = true;
            if (fault == Fault.WRITE) {
                refusedInCommand = true;
                failedWith = new StoreException("injected: no space left on device");
            } else {
                disk.write(batch).join();
                failedWith = new StoreException("injected: fsync failed", null, true);
            }
            return CompletableFuture.failedFuture(failedWith);
        }
        disk.write(batch).join(); // durable before the command's answer: a crash after it keeps it
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean resume() {
        failedWith = null; // every applied batch is on the disk already (writes are joined)
        return true;
    }

    @Override
    public boolean isEphemeral() {
        return false;
    }
}
