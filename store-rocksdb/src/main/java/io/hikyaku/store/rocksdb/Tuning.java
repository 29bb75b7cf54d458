package io.hikyaku.store.rocksdb;

import io.hikyaku.engine.store.Keyspace;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
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
                // At most this many tables open (a bounded table cache). Not -1 (every table open):
                // RocksDB then opens every table at start, which made start-up and memory grow with
                // the backlog (100 million messages, ~7,900 tables: +1.1 s, +50 MiB RSS). Bounded,
                // start-up opens at most a quarter of it; a drain opens each table once as it passes.
                .setMaxOpenFiles(RocksDbStore.MAX_OPEN_TABLES)
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
                families.put(space, own(dedupFamily(options.messagesWriteBufferBytes())));
                continue;
            }
            long buffer = space == Keyspace.MESSAGES
                    ? options.messagesWriteBufferBytes()
                    : Math.max(64 * 1024, options.messagesWriteBufferBytes() / 4);
            families.put(space, own(family(table, compression, buffer)));
        }
    }

    /**
     * DEDUP holds FIFO deduplication and receive-attempt entries, worthless five minutes after they
     * are written, read only when the engine loads; the engine deletes every entry it wrote (by its
     * own tick, in command time), so nothing here may drop data by age: a wall-clock drop is a
     * state a replica or a journal replay, loading at another moment, would not see. Level
     * compaction, like the other families: entries sit under (queue id, 'D', seq), so tables are
     * written in key order per queue and a table that overlaps nothing below is moved down without
     * a rewrite; an entry and its SingleDelete (written ~5 minutes later, in the same order) vanish
     * together when they meet, and a level-0 trigger of 8 makes most of them meet in one rewrite. No compression (hashes and ids) and no bloom filter (nothing looks
     * entries up one by one). The memtable is as large as MESSAGES's. See STORAGE.md.
     */
    ColumnFamilyOptions dedupFamily(long buffer) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setCacheIndexAndFilterBlocks(true)
                .setBlockSize(16 * 1024);
        return new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
                .setWriteBufferSize(buffer)
                .setMaxWriteBufferNumber(3)
                .setLevelCompactionDynamicLevelBytes(true)
                .setTargetFileSizeBase(Math.max(buffer, 2L << 20))
                .setMaxBytesForLevelBase(8 * Math.max(buffer, 2L << 20))
                // Eight tables (~32 MiB) before a compaction, not two: a put mostly meets its delete in
                // one rewrite (compaction writes 220 MB instead of 638 MB per 265 MB flushed, one queue;
                // 656 instead of 857 MB with ten: bench/results/2026-12-06-dedup-deterministic.txt).
                // Only a load reads DEDUP, by one scan, so more level-0 tables cost nothing else.
                .setLevel0FileNumCompactionTrigger(8)
                // No compaction by file age either (RocksDB's default 30 days): nothing here depends on a clock.
                .setTtl(0)
                .setPeriodicCompactionSeconds(0);
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
