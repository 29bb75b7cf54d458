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

    private final List<RocksObject> owned = new ArrayList<>();
    final DBOptions dbOptions;
    final ColumnFamilyOptions defaultFamily;
    final Map<Keyspace, ColumnFamilyOptions> families = new EnumMap<>(Keyspace.class);
    final SstFileManager sstFileManager;

    Tuning(RocksDbStoreOptions options, CompressionType compression) throws RocksDBException {
        Cache cache = own(new LRUCache(options.blockCacheBytes()));
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
                .setWriteBufferManager(writeBuffers)
                .setSstFileManager(sstFileManager)
                .setMaxTotalWalSize(4 * options.memtableBudgetBytes())
                .setMaxBackgroundJobs(2)
                .setMaxOpenFiles(256)
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
            long buffer = space == Keyspace.MESSAGES
                    ? options.messagesWriteBufferBytes()
                    : Math.max(64 * 1024, options.messagesWriteBufferBytes() / 4);
            // Deduplication entries are hashes and ids that live five minutes: LZ4 gains little on
            // them and was ~30% of the background CPU of a FIFO run (their flushes and compactions).
            CompressionType spaceCompression = space == Keyspace.DEDUP ? CompressionType.NO_COMPRESSION : compression;
            families.put(space, own(family(table, spaceCompression, buffer)));
        }
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
