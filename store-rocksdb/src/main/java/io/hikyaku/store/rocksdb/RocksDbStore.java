package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.OwnerOnly;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import io.hikyaku.engine.store.StoreException;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A durable {@link Store} on RocksDB: one column family per {@link Keyspace}, batches applied to
 * the WAL unsynced (so reads see them at once) and made durable by one syncing thread that groups
 * concurrent batches into a single fsync. See STORAGE.md.
 */
public final class RocksDbStore implements Store {

    private final DataDirectory directory;
    private final RocksDbStoreOptions options;
    private volatile boolean flushMemtablesAtClose = true;
    /** Replaced only by {@link #reopen} (under the lifecycle write lock). */
    private volatile OpenDb open;
    /** Table files RocksDB keeps open at most (its table cache); more stay closed until read. */
    public static final int MAX_OPEN_TABLES = 2_048;
    /** Whether every table's checksums are known good (at open, or by {@link TableVerifier} since): reads then skip them. */
    private volatile boolean verified;
    /** Damage the background verification found, or null. */
    private volatile String corruption;
    private Thread verifier;
    private final int[] familyIdArray = new int[Keyspace.values().length];
    private final WriteOptions writeOptions;
    private final WriteBatchEncoder.FamilyIds familyIds;
    private final DurableWatermark watermark;
    private final Syncer syncer;
    /** Reads and writes share; close takes it exclusively so no native call outlives the handles. */
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    /**
     * Held while a batch gets its {@link BatchNumber} and goes into RocksDB, so that numbers are in
     * WAL order even with concurrent writers (the write itself is unsynced: microseconds).
     */
    private final ReentrantLock writeOrder = new ReentrantLock();
    /** Number of the last batch given out (guarded by writeOrder); failed writes burn theirs. */
    private long lastNumbered;
    /** Number of the last batch RocksDB accepted. */
    private volatile long lastWritten;
    private volatile boolean closed;
    /**
     * The first write or fsync failure since the last successful {@link #resume()}, else null. While
     * set, no batch is applied (fail-stop, see the Store contract): a later batch may depend on the
     * failed one, so it must not reach the disk without it.
     */
    private volatile StoreException failure;
    /** A WAL fsync failed since the last successful resume(): applied batches may be only in pages the OS dropped. */
    private volatile boolean syncFailed;
    /** Tests: the next resume() takes the reopen path. */
    private volatile boolean reopenOnResume;
    /** The database was closed by {@link #reopen} and is not open again yet. */
    private volatile boolean reopening;
    /**
     * FSYNC durability: a writer only queues its batch, and the syncer applies everything queued as
     * one RocksDB write right before the fsync that acknowledges it. The WAL append and the memtable
     * inserts then leave the request threads (and the engine's lock), and a group shares one
     * {@code write(2)}. Other levels acknowledge before any fsync, so there a batch goes into RocksDB
     * (the OS's page cache) before its future completes, as before.
     */
    private final boolean deferWrites;
    private final WriteQueue queue = new WriteQueue();

    private RocksDbStore(DataDirectory directory, RocksDbStoreOptions options, OpenDb open) throws RocksDBException {
        this.directory = directory;
        this.options = options;
        this.open = open;
        this.writeOptions = new WriteOptions().setSync(false);
        int[] ids = familyIdArray;
        for (Keyspace space : Keyspace.values()) {
            ids[space.ordinal()] = open.handles.get(space).getID();
        }
        this.familyIds = space -> ids[space.ordinal()];
        long start = BatchNumber.last(open.db, open.defaultFamily);
        this.lastNumbered = start;
        this.lastWritten = start;
        this.watermark = DurableWatermark.open(directory.path(), start);
        this.deferWrites = options.durability() == Durability.FSYNC;
        this.syncer = new Syncer(this::syncWal, this::applyQueuedForSync, options.durability(),
                options.syncIntervalMillis(), start);
        this.verified = open.verifiedAtOpen;
        if (options.verifyChecksumsOnOpen() && !open.verifiedAtOpen) {
            // too big to verify before serving: verified while serving, reads check their own blocks meanwhile
            this.verifier = TableVerifier.start(directory.path(), open.tablePaths(), damage -> {
                if (damage == null) {
                    verified = true;
                } else {
                    corruption = damage;
                }
            });
        }
    }

    /**
     * Damage found by the background checksum verification of a store too big to verify before it
     * opened (a smaller one refuses to open instead), or null.
     */
    public String corruption() {
        return corruption;
    }

    /** Waits for the background verification, if one runs (tests); true when the tables are known good. */
    boolean awaitVerification(long millis) throws InterruptedException {
        if (verifier != null) {
            verifier.join(millis);
        }
        return verified;
    }

    /** Opens the store in {@code dataDir} with FSYNC durability. */
    public static RocksDbStore open(Path dataDir) {
        return open(dataDir, RocksDbStoreOptions.defaults());
    }

    public static RocksDbStore open(Path dataDir, Durability durability) {
        return open(dataDir, RocksDbStoreOptions.defaults().withDurability(durability));
    }

    public static RocksDbStore open(Path dataDir, RocksDbStoreOptions options) {
        DataDirectory directory = DataDirectory.open(dataDir);
        OpenDb db;
        try {
            db = OpenDb.open(directory.path(), options);
        } catch (RuntimeException e) {
            directory.close();
            throw e;
        }
        try {
            return new RocksDbStore(directory, options, db);
        } catch (RocksDBException e) {
            db.close();
            directory.close();
            throw OpenDb.translate(directory.path(), e);
        } catch (RuntimeException e) {
            db.close();
            directory.close();
            throw e;
        }
    }

    /**
     * Backs up a store that is not open (in this or another process) into {@code targetDir}, which
     * must not exist. Fails with "in use" if a server has it open: use {@link #checkpoint} there.
     */
    public static void backup(Path dataDir, Path targetDir) {
        if (!Files.isRegularFile(dataDir.resolve(FormatFile.NAME))) {
            throw new StoreException("data directory " + dataDir.toAbsolutePath() + " holds no Hikyaku store");
        }
        try (RocksDbStore store = open(dataDir)) {
            store.checkpoint(targetDir);
        }
    }

    @Override
    public byte[] get(Keyspace space, byte[] key) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            applyQueued(); // read what was written, even if not applied yet
            return open.db.get(open.handles.get(space), key);
        } catch (RocksDBException e) {
            throw new StoreException("cannot read " + space + ": " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    @Override
    public void scan(Keyspace space, byte[] prefix, EntryVisitor visitor) {
        scanLocked(space, prefix, 0, visitor);
    }

    /**
     * Values are copied out through a reused direct buffer and cut to {@code headBytes}: the loader
     * of a million 256-byte messages then allocates a few dozen MB instead of several hundred.
     */
    @Override
    public void scanHeads(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        scanLocked(space, prefix, Math.max(headBytes, 1), visitor);
    }

    /** Seeks to {@code from}: the engine pages spilled tails and cleans purged ranges in chunks with it. */
    @Override
    public void scanFrom(Keyspace space, byte[] prefix, byte[] from, int headBytes, EntryVisitor visitor) {
        byte[] start = java.util.Arrays.compareUnsigned(from, prefix) > 0 ? from : prefix;
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            applyQueued();
            scanOpen(space, prefix, start, headBytes, 0, visitor);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Seeks backwards from the end of {@code prefix}'s range: one seek, whatever the prefix holds. */
    @Override
    public byte[] lastKey(Keyspace space, byte[] prefix) {
        byte[] above = Store.successor(prefix);
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            applyQueued();
            try (ReadOptions read = new ReadOptions().setFillCache(false);
                 RocksIterator it = open.db.newIterator(open.handles.get(space), read)) {
                if (above == null) {
                    it.seekToLast();
                } else {
                    it.seekForPrev(above);
                    if (it.isValid() && Arrays.equals(it.key(), above)) {
                        it.prev(); // seekForPrev lands on the bound itself when it is a key
                    }
                }
                it.status();
                if (!it.isValid()) {
                    return null;
                }
                byte[] key = it.key();
                return startsWith(key, prefix) ? key : null;
            }
        } catch (RocksDBException e) {
            throw new StoreException("cannot seek " + space + ": " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    private void scanLocked(Keyspace space, byte[] prefix, int headBytes, EntryVisitor visitor) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            applyQueued();
            scanOpen(space, prefix, prefix, headBytes, WHOLE_SCAN_READAHEAD, visitor);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Fixed read-ahead of a pass over a whole prefix (start-up's index rebuild, health probes). */
    private static final long WHOLE_SCAN_READAHEAD = 2L << 20;

    /**
     * One pass over a keyspace: keeps its blocks out of the cache the running server needs, and
     * skips block checksums once the whole store is verified (at open, or in the background since). {@code headBytes} 0 passes
     * whole values, else at most that many. {@code readahead} 0 leaves read-ahead to RocksDB, which
     * grows it as the iterator goes on: the engine's chunked reads from a key (a page-in, a
     * receive's read-ahead: tens of KB) would otherwise copy up to 2 MB of each table they touch.
     */
    private void scanOpen(Keyspace space, byte[] prefix, byte[] start, int headBytes, long readahead,
                          EntryVisitor visitor) {
        ByteBuffer head = headBytes > 0 ? ByteBuffer.allocateDirect(headBytes) : null;
        try (ReadOptions read = new ReadOptions().setFillCache(false).setReadaheadSize(readahead)
                     .setVerifyChecksums(!verified);
             RocksIterator it = open.db.newIterator(open.handles.get(space), read)) {
            if (start.length == 0) {
                it.seekToFirst();
            } else {
                it.seek(start);
            }
            for (; it.isValid(); it.next()) {
                byte[] key = it.key();
                if (!startsWith(key, prefix) || !visitor.visit(key, head == null ? it.value() : head(it, head))) {
                    break;
                }
            }
            it.status();
        } catch (RocksDBException e) {
            throw new StoreException("cannot scan " + space + ": " + e.getMessage(), e);
        }
    }

    private static byte[] head(RocksIterator it, ByteBuffer buffer) {
        buffer.clear();
        int length = it.value(buffer);
        byte[] value = new byte[Math.min(length, buffer.capacity())];
        buffer.get(0, value);
        return value;
    }

    @Override
    public CompletableFuture<Void> write(StoreBatch batch) {
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        StoreException failed = failure;
        if (failed != null) {
            return CompletableFuture.failedFuture(refused(failed));
        }
        byte[] rep = WriteBatchEncoder.encode(batch.ops(), familyIds);
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            queue.add(rep, acknowledged);
            if (!deferWrites) {
                applyQueued(); // batch and none: in RocksDB (the OS's page cache) before the answer
            }
        } catch (StoreException e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            lifecycle.readLock().unlock();
        }
        if (deferWrites) {
            syncer.kick();
        }
        return acknowledged;
    }

    /** The syncer's step before each sync: whatever is queued goes into RocksDB and rides on that sync. */
    private void applyQueuedForSync() {
        lifecycle.readLock().lock();
        try {
            if (!closed) {
                applyQueued();
            }
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Applies every queued batch, oldest first, as one RocksDB write (callers hold the lifecycle
     * read lock). Each batch gets its number in queue order, which is the engine's order; its future
     * then waits for the next sync. If RocksDB refuses the write, every batch in it fails.
     */
    private void applyQueued() {
        writeOrder.lock();
        try {
            List<WriteQueue.Queued> batches = queue.takeAll();
            if (batches.isEmpty()) {
                return;
            }
            StoreException failed = failure;
            if (failed != null) {
                StoreException refusal = refused(failed);
                batches.forEach(q -> q.acknowledged().completeExceptionally(refusal));
                return;
            }
            List<byte[]> reps = new ArrayList<>(batches.size());
            long first = lastNumbered + 1;
            for (WriteQueue.Queued q : batches) {
                reps.add(WriteBatchEncoder.withBatchNumber(q.rep(), ++lastNumbered));
            }
            try (WriteBatch wb = new WriteBatch(WriteBatchEncoder.concat(reps))) {
                open.db.write(writeOptions, wb);
            } catch (RocksDBException | RuntimeException e) {
                // RocksDB applies nothing of a write it refuses (WAL first, then memtables).
                StoreException refusal = new StoreException("cannot persist " + batches.size()
                        + " batches: " + e.getMessage(), e);
                failure = refusal;
                batches.forEach(q -> q.acknowledged().completeExceptionally(refusal));
                return;
            }
            lastWritten = lastNumbered;
            for (int i = 0; i < batches.size(); i++) {
                syncer.written(first + i, batches.get(i).acknowledged());
            }
        } finally {
            writeOrder.unlock();
        }
    }

    /** Called only by the syncer thread: batches up to {@code upToBatch} are in the WAL already. */
    private void syncWal(long upToBatch) {
        lifecycle.readLock().lock();
        try {
            if (reopening) {
                // The batches are in the WAL's pages, which the reopen replays: not an fsync failure.
                throw new StoreException("store is reopening after a failure", null, true);
            }
            ensureOpen();
            open.db.flushWal(true);
            watermark.advance(upToBatch);
        } catch (RocksDBException | IOException e) {
            // The batches are applied (reads see them) but maybe not on disk: outcome unknown
            // until resume() has written the memtables out.
            StoreException unknown = new StoreException("write-ahead log sync failed: " + e.getMessage(), e, true);
            if (!closed) {
                syncFailed = true;
                failure = unknown;
            }
            throw unknown;
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * After a failure: fails whatever is still queued (written before this call), writes every
     * memtable out to new table files (so batches whose WAL fsync failed are durable in tables, not
     * left to WAL pages the OS may have dropped), then accepts writes again and proves it with one
     * synced write of the batch number alone. While RocksDB is still in its background-error state
     * (disk full, until its own recovery has run) the flush fails and this returns false.
     */
    @Override
    public boolean resume() {
        if (failure == null) {
            return true;
        }
        CompletableFuture<Void> probe = new CompletableFuture<>();
        lifecycle.readLock().lock();
        try {
            if (closed) {
                return false;
            }
            // Not ensureOpen(): after a reopen that failed (the disk still full) the database stays
            // closed with `reopening` set, and only flushAll() below tries the reopen again.
            writeOrder.lock();
            try {
                StoreException failed = failure;
                if (failed == null) {
                    return true;
                }
                StoreException refusal = refused(failed);
                queue.takeAll().forEach(q -> q.acknowledged().completeExceptionally(refusal));
                if (!flushAll()) {
                    return false;
                }
                failure = null;
                syncFailed = false;
                queue.add(WriteBatchEncoder.encode(List.of(), familyIds), probe);
                if (!deferWrites) {
                    applyQueued();
                }
            } finally {
                writeOrder.unlock();
            }
        } catch (StoreException closedNow) {
            return false;
        } finally {
            lifecycle.readLock().unlock();
        }
        if (deferWrites) {
            syncer.kick();
        }
        try {
            probe.get(10, java.util.concurrent.TimeUnit.SECONDS);
            lastResumeProblem = null;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            noteResumeProblem("the synced probe write failed: " + (e.getCause() != null ? e.getCause().getMessage() : "no answer in 10 s"));
            return false;
        }
    }

    /**
     * Writes every memtable out. If RocksDB is still in its background-error state and will not
     * leave it by itself (its automatic recovery gave up, as seen after a WAL append failed with
     * ENOSPC while flushes were failing too: rocksdbjni has no DB::Resume()), the database is closed
     * and opened again, which is what a restart would do without restarting: the WAL (whole in the
     * OS's page cache, since the process did not die) is replayed and written out to tables. Not
     * after a failed fsync: the OS may have dropped the pages it could not write, so a replay could
     * silently lose batches that were applied; then only a restart helps.
     */
    private boolean flushAll() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            ensureOpen();
            if (reopenOnResume) {
                reopenOnResume = false;
                throw new StoreException("test: as if RocksDB stayed in its background-error state");
            }
            for (ColumnFamilyHandle cf : open.storeFamilies()) {
                open.db.flush(flush, cf);
            }
            return true;
        } catch (RocksDBException | StoreException e) {
            noteResumeProblem("flush refused: " + e.getMessage() + (syncFailed ? " (after a failed fsync: a restart is needed)" : ""));
            return !syncFailed && reopen();
        }
    }

    /** Why the latest resume() could not go on, logged when it changes (resume is retried every second). */
    private void noteResumeProblem(String why) {
        if (!why.equals(lastResumeProblem)) {
            lastResumeProblem = why;
            RESUME_LOG.warn("store not resumed yet: {}", why);
        }
    }

    private static final org.slf4j.Logger RESUME_LOG = org.slf4j.LoggerFactory.getLogger(RocksDbStore.class);
    private volatile String lastResumeProblem;

    /** Closes and reopens RocksDB (callers hold writeOrder; takes the lifecycle write lock). */
    private boolean reopen() {
        lifecycle.readLock().unlock(); // resume() holds it; a read lock cannot be upgraded
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return false;
            }
            if (!reopening) {
                reopening = true; // from here until a successful open, every use of the database is refused
                open.close();
            }
            try {
                if (failNextReopen) {
                    failNextReopen = false;
                    throw new StoreException("test: as if the disk were still full");
                }
                open = OpenDb.open(directory.path(), options);
            } catch (RuntimeException e) {
                noteResumeProblem("reopening failed: " + e.getMessage());
                return false; // still closed; a later resume() tries again
            }
            for (Keyspace space : Keyspace.values()) {
                familyIdArray[space.ordinal()] = open.handles.get(space).getID();
            }
            verified = verified || open.verifiedAtOpen; // tables verified before stay so
            reopening = false;
            return true;
        } finally {
            lifecycle.readLock().lock();
            lifecycle.writeLock().unlock();
        }
    }

    /** Why a batch written after {@code failed} is refused; it was not applied. */
    private static StoreException refused(StoreException failed) {
        return new StoreException("not written: an earlier write failed and the store has not recovered yet ("
                + failed.getMessage() + ")", failed);
    }

    @Override
    public boolean isEphemeral() {
        return false;
    }

    /**
     * Writes a consistent, openable copy of the live store to {@code targetDir} (which must not
     * exist) without stopping writes. Uses hard links where possible, so it is cheap on one file system.
     */
    public void checkpoint(Path targetDir) {
        Path target = targetDir.toAbsolutePath().normalize();
        if (Files.exists(target)) {
            throw new StoreException("backup target " + target + " already exists");
        }
        lifecycle.readLock().lock();
        ensureOpenUnlockingOnFailure();
        try (Checkpoint checkpoint = Checkpoint.create(open.db)) {
            applyQueued();
            Files.createDirectories(target.getParent());
            // Everything up to here is in the checkpoint: it gets the same "recovers at least" check.
            long included = lastWritten;
            checkpoint.createCheckpoint(target.toString());
            OwnerOnly.tighten(target); // RocksDB made it with the umask; its hard-linked files are the live store's
            DurableWatermark.writeDurably(target, included);
            FormatFile.write(target);
        } catch (RocksDBException e) {
            throw new StoreException("cannot back up to " + target + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("cannot back up to " + target + ": " + DataDirectory.describe(e), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Flushes every memtable and compacts every column family: reclaims space now rather than later. */
    public void flushAndCompact() {
        lifecycle.readLock().lock();
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            ensureOpen();
            applyQueued();
            for (ColumnFamilyHandle cf : open.storeFamilies()) {
                open.db.flush(flush, cf);
                open.db.compactRange(cf);
            }
        } catch (RocksDBException e) {
            throw new StoreException("cannot compact: " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Changes the SST space quota at run time (0 = unlimited). Beyond it, writes fail as if the
     * disk were full; raising it lets them resume.
     */
    public void setMaxSpaceBytes(long bytes) {
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            open.sstFileManager().setMaxAllowedSpaceUsage(bytes);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * RocksDB's native memory use in bytes, by property (memtables, block cache including the
     * memtable charge, table readers), summed over column families. For metrics and diagnostics.
     */
    public java.util.Map<String, Long> memoryStats() {
        String[] properties = {"rocksdb.cur-size-all-mem-tables", "rocksdb.estimate-table-readers-mem",
                "rocksdb.block-cache-usage", "rocksdb.block-cache-pinned-usage"};
        java.util.Map<String, Long> stats = new java.util.LinkedHashMap<>();
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            for (String property : properties) {
                long total = 0;
                for (ColumnFamilyHandle cf : open.storeFamilies()) {
                    total += open.db.getLongProperty(cf, property);
                    if (property.startsWith("rocksdb.block-cache")) {
                        break; // one shared cache: every family reports the same number
                    }
                }
                stats.put(property, total);
            }
            return stats;
        } catch (RocksDBException e) {
            throw new StoreException("cannot read memory statistics: " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** The directory this store lives in. */
    public Path dataDir() {
        return directory.path();
    }

    public RocksDbStoreOptions options() {
        return options;
    }

    /** Tells {@code observer} each WAL sync's group size and duration (metrics). */
    public void observeSyncs(SyncObserver observer) {
        syncer.observe(observer);
    }

    /**
     * Size and health numbers for metrics: bytes of table files (live and total, including obsolete
     * files not yet deleted), WAL bytes, memtable bytes, pending compaction bytes, background errors,
     * and whether writes are stopped (1) or not (0). Summed over the store's column families.
     */
    public java.util.Map<String, Long> healthStats() {
        String[] summed = {"rocksdb.live-sst-files-size", "rocksdb.total-sst-files-size",
                "rocksdb.cur-size-all-mem-tables", "rocksdb.estimate-pending-compaction-bytes",
                "rocksdb.num-running-compactions", "rocksdb.num-running-flushes"};
        String[] global = {"rocksdb.background-errors", "rocksdb.is-write-stopped", "rocksdb.live-wal-files-size"};
        java.util.Map<String, Long> stats = new java.util.LinkedHashMap<>();
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            for (String property : summed) {
                long total = 0;
                for (ColumnFamilyHandle cf : open.storeFamilies()) {
                    total += open.db.getLongProperty(cf, property);
                }
                stats.put(property, total);
            }
            for (String property : global) {
                try {
                    stats.put(property, open.db.getLongProperty(property));
                } catch (RocksDBException unknownProperty) {
                    // older RocksDB builds lack some properties: leave them out
                }
            }
            return stats;
        } catch (RocksDBException e) {
            throw new StoreException("cannot read store statistics: " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** How many WAL fsyncs the store has done (for measurements). */
    public long walSyncCount() {
        return syncer.syncCount();
    }

    /** Tests: the next {@link #resume()} reopens the database, as when RocksDB does not recover by itself. */
    void reopenOnNextResume() {
        reopenOnResume = true;
    }

    /** Tests: the next reopen fails, as it does while the disk is still full (RocksDB cannot write its options file). */
    void failNextReopen() {
        failNextReopen = true;
    }

    private volatile boolean failNextReopen;

    /** Tests: close leaving the memtables to the WAL, as a crash does (the corruption tests damage that WAL). */
    void keepMemtablesAtClose() {
        flushMemtablesAtClose = false;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (verifier != null) {
            verifier.interrupt(); // it stops between tables; it reads files, not the database
        }
        syncer.stop();
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            // Queued after the syncer's last round (it applied and synced everything before that):
            // never written, so never acknowledged.
            StoreException closing = new StoreException("store is closing");
            queue.takeAll().forEach(q -> q.acknowledged().completeExceptionally(closing));
            if (reopening) { // the database is closed already (a failed reopen)
                writeOptions.close();
                watermark.close();
                directory.close();
                return;
            }
            try {
                open.db.flushWal(true);
                watermark.advance(lastWritten);
                watermark.forceToDisk();
            } catch (RocksDBException | IOException e) {
                // Nothing more to do: whatever was acknowledged was synced before its future completed.
            }
            // A clean stop also writes the memtables out, so the next start has no WAL to replay
            // (up to max_total_wal_size of it after a busy run); after a crash the WAL does the job.
            if (flushMemtablesAtClose) {
                try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                    for (ColumnFamilyHandle cf : open.storeFamilies()) {
                        open.db.flush(flush, cf);
                    }
                } catch (RocksDBException e) {
                    // The WAL still holds everything; the next start replays it.
                }
            }
            open.close();
            writeOptions.close();
            watermark.close();
            directory.close();
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private void ensureOpenUnlockingOnFailure() {
        if (closed) {
            lifecycle.readLock().unlock();
            ensureOpen();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreException("store " + directory.path() + " is closed");
        }
        if (reopening) {
            throw new StoreException("store " + directory.path() + " is being reopened after a write failure");
        }
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
