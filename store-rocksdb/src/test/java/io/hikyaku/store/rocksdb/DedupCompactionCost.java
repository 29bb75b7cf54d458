package io.hikyaku.store.rocksdb;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.*;

/**
 * Not a test: a measurement tool (bench/results/2026-12-06-dedup-deterministic.txt). What RocksDB's
 * compaction of the DEDUP family costs under a FIFO workload, on the store's own DEDUP options: QUEUES
 * queues send in turn, each entry (a 17-byte key as the engine writes it, a 66-byte value) is
 * SingleDeleted LIVE entries later (the engine's five-minute window). No WAL: only the family's own
 * flush and compaction bytes are counted (RocksDB statistics). MODE: {@code level} (the store's
 * options), {@code level-l0=N} (another level-0 trigger), {@code universal}, {@code fifo-ttl} (the
 * earlier FIFO compaction with a 600 s TTL, which never rewrites).
 * usage: DedupCompactionCost MODE QUEUES TOTAL LIVE EMPTY_DIR
 */
public class DedupCompactionCost {
    public static void main(String[] a) throws Exception {
        String mode = a[0];
        int queues = Integer.parseInt(a[1]);
        long total = Long.parseLong(a[2]);
        long live = Long.parseLong(a[3]);
        Path dir = Path.of(a[4]);
        NativeLibrary.load();
        try (Tuning tuning = new Tuning(RocksDbStoreOptions.defaults(), CompressionType.NO_COMPRESSION)) {
            long buffer = RocksDbStoreOptions.defaults().messagesWriteBufferBytes();
            ColumnFamilyOptions cf = tuning.dedupFamily(buffer);
            if (mode.equals("fifo-ttl")) {
                cf.setCompactionStyle(CompactionStyle.FIFO)
                  .setCompactionOptionsFIFO(new CompactionOptionsFIFO().setMaxTableFilesSize(Long.MAX_VALUE).setAllowCompaction(false))
                  .setTtl(600);
            } else if (mode.startsWith("level-l0=")) {
                cf.setLevel0FileNumCompactionTrigger(Integer.parseInt(mode.substring(9)));
            } else if (mode.equals("universal")) {
                cf.setCompactionStyle(CompactionStyle.UNIVERSAL);
            }
            Statistics stats = new Statistics();
            tuning.dbOptions.setStatistics(stats).setRecycleLogFileNum(0);
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                    new ColumnFamilyDescriptor("DEDUP".getBytes(), cf));
            long t0 = System.nanoTime();
            try (RocksDB db = RocksDB.open(tuning.dbOptions, dir.toString(), families, handles);
                 WriteOptions wo = new WriteOptions().setDisableWAL(true)) {
                ColumnFamilyHandle h = handles.get(1);
                byte[] value = new byte[66];
                long[] seq = new long[queues];
                long[] delSeq = new long[queues];
                for (long i = 0; i < total; i++) {
                    int q = (int) (i % queues);
                    try (WriteBatch wb = new WriteBatch()) {
                        wb.put(h, key(q, ++seq[q]), value);
                        if (i >= live) {
                            int dq = (int) ((i - live) % queues);
                            wb.singleDelete(h, key(dq, ++delSeq[dq]));
                        }
                        db.write(wo, wb);
                    }
                }
                db.flush(new FlushOptions().setWaitForFlush(true), h);
                for (int i = 0; i < 600 && !db.getProperty(h, "rocksdb.compaction-pending").equals("0"); i++) Thread.sleep(100);
                Thread.sleep(500);
                long secs = (System.nanoTime() - t0) / 1_000_000;
                long flushed = stats.getTickerCount(TickerType.FLUSH_WRITE_BYTES);
                long cw = stats.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
                long cr = stats.getTickerCount(TickerType.COMPACT_READ_BYTES);
                System.out.printf("mode=%s queues=%d entries=%d live=%d flushed_MB=%.1f compact_write_MB=%.1f compact_read_MB=%.1f write_amp=%.2f sst_MB=%.1f files=%s keys_est=%s ms=%d%n",
                        mode, queues, total, live, flushed / 1e6, cw / 1e6, cr / 1e6, (flushed + cw) / (double) flushed,
                        Long.parseLong(db.getProperty(h, "rocksdb.total-sst-files-size")) / 1e6,
                        countFiles(db, h),
                        db.getProperty(h, "rocksdb.estimate-num-keys"), secs);
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    static String countFiles(RocksDB db, ColumnFamilyHandle h) throws RocksDBException {
        StringBuilder sb = new StringBuilder();
        for (int l = 0; l < 7; l++) {
            String n = db.getProperty(h, "rocksdb.num-files-at-level" + l);
            if (!n.equals("0")) sb.append("L").append(l).append(':').append(n).append(' ');
        }
        return sb.toString().trim().replace(' ', ',');
    }

    static byte[] key(long q, long s) {
        return ByteBuffer.allocate(17).putLong(q + 1).put((byte) 'D').putLong(s).array();
    }
}
