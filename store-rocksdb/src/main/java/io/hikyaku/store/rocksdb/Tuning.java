package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptionsFIFO;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksObject;
import org.rocksdb.SstFileManager;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBufferManager;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * RocksDB options for a queue workload: small keys and bodies written once and removed once, a
 * small live backlog, an idle server that must stay small. Owns every native option object.
 */
final class Tuning implements AutoCloseable {

    /** Obsolete WAL files kept for reuse (each about one MESSAGES memtable, 4 MiB by default). */
    static final int RECYCLED_WAL_FILES = 4;

    private final List<RocksObject> owned = new ArrayList<>();
    final DBOptions dbOptions;
    final ColumnFamilyOptions defaultFamily;
    final Map<Keyspace, ColumnFamilyOptions> families = new EnumMap<>(Keyspace.class);
    final SstFileManager sstFileManager;
    private final Cache cache;

    Tuning(RocksDbStoreOptions options, CompressionType compression) throws RocksDBException {
        cache = own(new LRUCache(options.blockCacheBytes()));
        // Charging memtables to the block cache bounds RocksDB's memory by one number.
        WriteBufferManager writeBuffers = own(new WriteBufferManager(options.memtableBudgetBytes(), cache));
        sstFileManager = own(new SstFileManager(Env.getDefault()));
        if (options.maxSpaceBytes() > 0) {
            sstFileManager.setMaxAllowedSpaceUsage(options.maxSpaceBytes());
        }
        dbOptions = own(new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setParanoidChecks(true)
                .setWalRecoveryMode(WALRecoveryMode.PointInTimeRecovery)
                // Reuse obsolete WAL files: overwriting blocks a file already has leaves its size alone,
                // so each group-commit fdatasync writes the data only, not also a journal commit for
                // the grown size (~20% less CPU and latency per fsync on this machine's ext4; see
                // STORAGE.md). Recycled records carry their log number, which point-in-time recovery
                // uses to stop at the previous use's leftovers.
                .setRecycleLogFileNum(RECYCLED_WAL_FILES)
                .setWriteBufferManager(writeBuffers)
                .setSstFileManager(sstFileManager)
                .setMaxTotalWalSize(4 * options.memtableBudgetBytes())
                .setMaxBackgroundJobs(2)
                // Every table stays open (RocksDB requires it for DEDUP's age-based file drops, below);
                // the JVM raises the soft descriptor limit to the hard one. See STORAGE.md.
                .setMaxOpenFiles(-1)
                .setKeepLogFileNum(3)
                .setMaxLogFileSize(1L << 20)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                .setStatsDumpPeriodSec(0)
                .setStatsPersistPeriodSec(0)
                .setMaxBgErrorResumeCount(Integer.MAX_VALUE)
                .setBgerrorResumeRetryInterval(200_000)
                .setBytesPerSync(1L << 20));
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(own(new BloomFilter(10)))
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true)
                .setBlockSize(16 * 1024);
        // The default family holds one key, the batch number, rewritten by every batch: its memtable
        // grows by about 65 bytes a batch, so 1/16 of the MESSAGES buffer (256 KiB by default) flushes
        // a one-key table every ~4 000 batches, about as often as MESSAGES with 1 KiB bodies. Larger
        // would keep more WAL files alive (a family's memtable pins the WAL its oldest entry is in).
        defaultFamily = own(family(table, compression, Math.max(64 * 1024, options.messagesWriteBufferBytes() / 16)));
        for (Keyspace space : Keyspace.values()) {
            if (space == Keyspace.DEDUP) {
                families.put(space, own(dedupFamily(options.messagesWriteBufferBytes(), dedupTableTtlSeconds())));
                continue;
            }
            long buffer = space == Keyspace.MESSAGES
                    ? options.messagesWriteBufferBytes()
                    : Math.max(64 * 1024, options.messagesWriteBufferBytes() / 4);
            families.put(space, own(family(table, compression, buffer)));
        }
    }

    /** How long after its flush a DEDUP table is dropped: twice the keyspace's promised entry lifetime. */
    static long dedupTableTtlSeconds() {
        return 2 * Keyspace.DEDUP.maxEntryLifetimeMillis() / 1000;
    }

    /**
     * DEDUP holds entries that are worthless five minutes after they are written and that are only
     * read when the engine loads. Compacting them was most of a FIFO run's background CPU (their
     * keys are hashes, so every new table overlapped every old one and each compaction rewrote the
     * whole window). So: FIFO compaction, which never rewrites; a table is dropped whole once it is
     * {@link #dedupTableTtlSeconds()} older than its flush (RocksDB dates a flushed table by the
     * flush, so every entry in it is at least that old); no size limit, so nothing is dropped early;
     * no compression (hashes and ids) and no bloom filter (nothing looks entries up one by one). The
     * memtable is as large as MESSAGES's, so that fewer, larger tables stay open.
     */
    ColumnFamilyOptions dedupFamily(long buffer, long ttlSeconds) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setCacheIndexAndFilterBlocks(true)
                .setBlockSize(16 * 1024);
        return new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setWriteBufferSize(buffer)
                .setMaxWriteBufferNumber(3)
                .setCompactionStyle(CompactionStyle.FIFO)
                .setCompactionOptionsFIFO(own(new CompactionOptionsFIFO()
                        .setMaxTableFilesSize(Long.MAX_VALUE)
                        .setAllowCompaction(false)))
                .setTtl(ttlSeconds);
    }

    private static ColumnFamilyOptions family(BlockBasedTableConfig table, CompressionType compression,
                                              long writeBuffer) {
        return new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(compression)
                .setBottommostCompressionType(compression)
                .setWriteBufferSize(writeBuffer)
                .setMaxWriteBufferNumber(3)
                .setLevelCompactionDynamicLevelBytes(true)
                .setTargetFileSizeBase(Math.max(writeBuffer, 2L << 20))
                .setMaxBytesForLevelBase(8 * Math.max(writeBuffer, 2L << 20))
                // Puts and SingleDeletes usually meet in the memtable or at the first compaction.
                .setLevel0FileNumCompactionTrigger(2);
    }

    private <T extends RocksObject> T own(T object) {
        owned.add(object);
        return object;
    }

    @Override
    public void close() {
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
    }
}
