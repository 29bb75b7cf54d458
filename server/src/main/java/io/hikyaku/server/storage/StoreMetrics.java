package io.hikyaku.server.storage;

import io.hikyaku.metrics.HikyakuMetrics;
import io.hikyaku.store.rocksdb.RocksDbStore;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The store's metrics: health and write failures for every store; for RocksDB also WAL fsync latency
 * and group size (one fsync acknowledges a group of writes), file sizes and RocksDB's own health
 * numbers (background errors, stopped writes, pending compaction), read once per scrape.
 */
public final class StoreMetrics {

    private static final Duration[] SYNC_BUCKETS = {Duration.ofNanos(100_000), Duration.ofNanos(250_000),
            Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
            Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofSeconds(1)};

    private volatile Map<String, Long> stats = Map.of();

    private StoreMetrics() {}

    /** {@code problem}: why the service refuses calls while the storage recovers, or null (SqsService.storageProblem). */
    public static void bind(HikyakuMetrics metrics, StoreHealth health, java.util.function.Supplier<String> problem,
                            RocksDbStore rocks) {
        MeterRegistry registry = metrics.registry();
        Gauge.builder("hikyaku.store.healthy", problem, p -> p.get() == null ? 1 : 0)
                .strongReference(true) // the supplier is a lambda nobody else holds: a weak one would read NaN
                .description("1 while store writes succeed, 0 from a failed write until the recovery has reloaded "
                        + "(/health says degraded)").register(registry);
        FunctionCounter.builder("hikyaku.store.write.failures", health, StoreHealth::failures)
                .description("Store writes that failed").register(registry);
        for (io.hikyaku.api.CallStages.Stage stage : io.hikyaku.api.CallStages.Stage.values()) {
            io.micrometer.core.instrument.FunctionTimer.builder("hikyaku.call.stage", stage,
                            io.hikyaku.api.CallStages::count, io.hikyaku.api.CallStages::totalNanos, TimeUnit.NANOSECONDS)
                    .tag("stage", stage.label())
                    .description("Where calls wait: command queue, applier, durable answer, a receive's answer, the answers thread")
                    .register(registry);
        }
        if (rocks == null) {
            return;
        }
        Timer sync = Timer.builder("hikyaku.wal.sync.duration").description("WAL fsync duration (group commit)")
                .serviceLevelObjectives(SYNC_BUCKETS).register(registry);
        DistributionSummary group = DistributionSummary.builder("hikyaku.wal.sync.group.size")
                .description("Writes acknowledged by one WAL fsync").serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256)
                .register(registry);
        Timer[] round = new Timer[4];
        String[] stages = {"waited", "wrote", "synced", "completed"};
        for (int i = 0; i < round.length; i++) {
            round[i] = Timer.builder("hikyaku.wal.round.stage").tag("stage", stages[i])
                    .description("One group commit round: waiting for the syncer, the RocksDB write, the fsync, completing the futures")
                    .register(registry);
        }
        rocks.observeSyncs(new io.hikyaku.store.rocksdb.SyncObserver() {
            @Override
            public void synced(int writes, long nanos) {
                sync.record(nanos, TimeUnit.NANOSECONDS);
                group.record(writes);
            }

            @Override
            public void round(int writes, long waited, long wrote, long synced, long completed) {
                round[0].record(waited, TimeUnit.NANOSECONDS);
                round[1].record(wrote, TimeUnit.NANOSECONDS);
                round[2].record(synced, TimeUnit.NANOSECONDS);
                round[3].record(completed, TimeUnit.NANOSECONDS);
            }
        });
        StoreMetrics m = new StoreMetrics();
        metrics.beforeScrape(() -> m.read(rocks));
        size(registry, m, "live_sst", "rocksdb.live-sst-files-size");
        size(registry, m, "total_sst", "rocksdb.total-sst-files-size");
        Gauge.builder("hikyaku.store.size", rocks, StoreMetrics::walBytes).baseUnit("bytes").tag("kind", "wal")
                .description("Bytes the store uses on disk (table files, WAL) and in memory (memtables)").register(registry);
        size(registry, m, "memtables", "rocksdb.cur-size-all-mem-tables");
        number(registry, m, "hikyaku.rocksdb.pending.compaction.bytes", "rocksdb.estimate-pending-compaction-bytes",
                "Bytes RocksDB estimates compaction must rewrite");
        number(registry, m, "hikyaku.rocksdb.background.errors", "rocksdb.background-errors",
                "RocksDB background errors since start (flush or compaction failures)");
        number(registry, m, "hikyaku.rocksdb.write.stopped", "rocksdb.is-write-stopped",
                "1 while RocksDB stops writes (too many files waiting for compaction)");
        number(registry, m, "hikyaku.rocksdb.running.compactions", "rocksdb.num-running-compactions", "Compactions running");
        number(registry, m, "hikyaku.rocksdb.running.flushes", "rocksdb.num-running-flushes", "Memtable flushes running");
    }

    private void read(RocksDbStore rocks) {
        try {
            stats = rocks.healthStats();
        } catch (RuntimeException closedOrFailing) {
            stats = Map.of();
        }
    }

    /** The WAL files' bytes (RocksDB's *.log files in the data directory, recycled ones included). */
    private static double walBytes(RocksDbStore rocks) {
        try (var files = java.nio.file.Files.list(rocks.dataDir())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).mapToLong(p -> {
                try {
                    return java.nio.file.Files.size(p);
                } catch (java.io.IOException gone) {
                    return 0;
                }
            }).sum();
        } catch (java.io.IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private double value(String property) {
        Long v = stats.get(property);
        return v == null ? Double.NaN : v;
    }

    private static void size(MeterRegistry registry, StoreMetrics m, String kind, String property) {
        Gauge.builder("hikyaku.store.size", m, s -> s.value(property)).baseUnit("bytes").tag("kind", kind)
                .description("Bytes the store uses on disk (table files, WAL) and in memory (memtables)").register(registry);
    }

    private static void number(MeterRegistry registry, StoreMetrics m, String name, String property, String help) {
        Gauge.builder(name, m, s -> s.value(property)).description(help).register(registry);
    }
}
