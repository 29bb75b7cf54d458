package io.hikyaku.cloudwatch;

import io.hikyaku.engine.store.OwnerOnly;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The custom metrics published with PutMetricData, per account, at the AWS/SQS series' resolution and
 * retention (1-minute statistic sets for 24 hours). Bounded: at most {@code maxPerAccount} distinct
 * series per account and {@code maxTotal} in all (~56 KiB each); a series with no datapoint for 24
 * hours frees its place. Saved with the metric history (same snapshot scheme: temp file, fsync, rename).
 * Thread-safe (one lock).
 */
final class CustomMetrics {

    /** Distinct custom series one account may have. */
    static final int DEFAULT_MAX_PER_ACCOUNT = 500;
    /** Distinct custom series in all accounts (~56 MiB at most). */
    static final int DEFAULT_MAX_TOTAL = 1000;
    static final String FILE_NAME = "cloudwatch-custom-metrics.bin";
    private static final int MAGIC = 0x484b4355; // "HKCU"
    private static final int FORMAT = 1;

    private final int maxPerAccount;
    private final int maxTotal;
    private final Map<String, Map<MetricKey, CustomSeries>> byAccount = new HashMap<>();
    private int total;

    CustomMetrics(int maxPerAccount, int maxTotal) {
        this.maxPerAccount = maxPerAccount;
        this.maxTotal = maxTotal;
    }

    /** A datapoint to record: minute, statistic set, unit (null = None). */
    record Point(MetricKey key, long minute, double count, double sum, double min, double max, String unit) {}

    /**
     * Records every point or none: the series the points need are checked against the limits first.
     * @throws CloudWatchException LimitExceeded when a new series would pass a limit
     */
    synchronized void record(String accountId, List<Point> points, long nowMinute) {
        Map<MetricKey, CustomSeries> series = byAccount.computeIfAbsent(accountId, a -> new LinkedHashMap<>());
        List<MetricKey> fresh = new ArrayList<>();
        for (Point p : points) {
            if (!series.containsKey(p.key()) && !fresh.contains(p.key())) {
                fresh.add(p.key());
            }
        }
        if (!fresh.isEmpty() && (series.size() + fresh.size() > maxPerAccount || total + fresh.size() > maxTotal)) {
            dropExpired(nowMinute);
            if (series.size() + fresh.size() > maxPerAccount) {
                throw CloudWatchException.limitExceeded("The limit of " + maxPerAccount
                        + " distinct custom metrics per account on this server is reached; metrics without a datapoint for 24 hours free their place.");
            }
            if (total + fresh.size() > maxTotal) {
                throw CloudWatchException.limitExceeded("The limit of " + maxTotal
                        + " distinct custom metrics on this server is reached; metrics without a datapoint for 24 hours free their place.");
            }
        }
        for (Point p : points) {
            CustomSeries s = series.get(p.key());
            if (s == null) {
                s = new CustomSeries(accountId, p.key());
                series.put(p.key(), s);
                total++;
            }
            s.add(p.minute(), p.count(), p.sum(), p.min(), p.max());
            if (p.unit() != null) {
                s.unit = p.unit();
            }
        }
    }

    private void dropExpired(long nowMinute) {
        for (Map<MetricKey, CustomSeries> series : byAccount.values()) {
            int before = series.size();
            series.values().removeIf(s -> s.newest() < nowMinute - CustomSeries.SLOTS);
            total -= before - series.size();
        }
    }

    /** The statistics of a series over minutes [from, to), or null. */
    synchronized Aggregate aggregate(String accountId, MetricKey key, String unit, long from, long to) {
        Map<MetricKey, CustomSeries> series = byAccount.get(accountId);
        CustomSeries s = series == null ? null : series.get(key);
        if (s == null || unit != null && !unit.equals(s.unit == null ? "None" : s.unit)) {
            return null;
        }
        return s.aggregate(from, to);
    }

    /** The unit of a series (null: None or unknown). */
    synchronized String unit(String accountId, MetricKey key) {
        Map<MetricKey, CustomSeries> series = byAccount.get(accountId);
        CustomSeries s = series == null ? null : series.get(key);
        return s == null ? null : s.unit;
    }

    /** The account's series with a datapoint at or after {@code since}, in namespace/name order. */
    synchronized List<MetricKey> keys(String accountId, long since) {
        Map<MetricKey, CustomSeries> series = byAccount.get(accountId);
        List<MetricKey> keys = new ArrayList<>();
        if (series != null) {
            for (CustomSeries s : series.values()) {
                if (s.newest() >= since) {
                    keys.add(s.key);
                }
            }
        }
        keys.sort((a, b) -> {
            int c = a.namespace().compareTo(b.namespace());
            if (c == 0) {
                c = a.metricName().compareTo(b.metricName());
            }
            return c != 0 ? c : a.dimensions().toString().compareTo(b.dimensions().toString());
        });
        return keys;
    }

    synchronized int size() {
        return total;
    }

    // ---- snapshot ----

    synchronized void save(Path file, long nowMinute) throws IOException {
        long since = nowMinute - CustomSeries.SLOTS;
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.file())) {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeInt(total);
            for (Map<MetricKey, CustomSeries> series : byAccount.values()) {
                for (CustomSeries s : series.values()) {
                    out.writeUTF(s.accountId);
                    out.writeUTF(s.key.namespace());
                    out.writeUTF(s.key.metricName());
                    out.writeUTF(s.unit == null ? "" : s.unit);
                    out.writeInt(s.key.dimensions().size());
                    for (MetricKey.Dimension d : s.key.dimensions()) {
                        out.writeUTF(d.name());
                        out.writeUTF(d.value());
                    }
                    long[] minutes = s.minutesSince(since);
                    out.writeInt(minutes.length);
                    for (long m : minutes) {
                        out.writeLong(m);
                        for (double v : s.at(m)) {
                            out.writeDouble(v);
                        }
                    }
                }
            }
            out.flush();
            channel.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Snapshots.syncDirectory(file);
    }

    synchronized void load(Path file, long nowMinute) throws IOException {
        long since = nowMinute - CustomSeries.SLOTS;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                throw new IOException("not a Hikyaku custom metrics file (or an unknown format): " + file);
            }
            int count = in.readInt();
            for (int i = 0; i < count; i++) {
                String account = in.readUTF();
                String namespace = in.readUTF();
                String name = in.readUTF();
                String unit = in.readUTF();
                int dims = in.readInt();
                List<MetricKey.Dimension> d = new ArrayList<>();
                for (int j = 0; j < dims; j++) {
                    d.add(new MetricKey.Dimension(in.readUTF(), in.readUTF()));
                }
                MetricKey key = new MetricKey(namespace, name, d);
                int points = in.readInt();
                List<Point> kept = new ArrayList<>();
                for (int p = 0; p < points; p++) {
                    long m = in.readLong();
                    double n = in.readDouble();
                    double s = in.readDouble();
                    double lo = in.readDouble();
                    double hi = in.readDouble();
                    if (m >= since) {
                        kept.add(new Point(key, m, n, s, lo, hi, unit.isEmpty() ? null : unit));
                    }
                }
                if (!kept.isEmpty()) {
                    try {
                        record(account, kept, nowMinute);
                    } catch (CloudWatchException overLimit) {
                        // a smaller limit than the run that saved it: the rest is not kept
                    }
                }
            }
        } catch (NoSuchFileException missing) {
            // first start
        }
    }
}
