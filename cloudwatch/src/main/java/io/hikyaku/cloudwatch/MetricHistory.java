package io.hikyaku.cloudwatch;

import io.hikyaku.engine.store.OwnerOnly;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 1-minute datapoints of every tracked queue for the last 24 hours. Bounded: at most
 * {@code maxQueues} queues are tracked (~160 KiB each); a queue beyond the cap is not recorded until
 * a tracked one has had no datapoint for 24 hours. Thread-safe (one lock: a sample a minute, rare reads).
 */
final class MetricHistory {

    private static final int MAGIC = 0x484b4357; // "HKCW"
    private static final int FORMAT = 1;

    private final int maxQueues;
    private final Map<String, QueueSeries> queues = new LinkedHashMap<>();

    MetricHistory(int maxQueues) {
        this.maxQueues = maxQueues;
    }

    private static String key(String accountId, String name) {
        return accountId + '\0' + name;
    }

    /** The series of a queue, created if there is room; null when the cap is reached. */
    synchronized QueueSeries series(String accountId, String name, boolean fifo, long nowMinute) {
        QueueSeries s = queues.get(key(accountId, name));
        if (s != null) {
            s.fifo = fifo;
            return s;
        }
        if (queues.size() >= maxQueues) {
            queues.values().removeIf(q -> q.newest() < nowMinute - QueueSeries.SLOTS);
            if (queues.size() >= maxQueues) {
                return null;
            }
        }
        s = new QueueSeries(accountId, name, fifo);
        queues.put(key(accountId, name), s);
        return s;
    }

    synchronized void record(QueueSeries series, long minute, long[] values, long count, long sum, long min, long max) {
        series.record(minute, values, count, sum, min, max);
    }

    /** The queue's series, or null when it has none. */
    synchronized QueueSeries find(String accountId, String name) {
        return queues.get(key(accountId, name));
    }

    /** The statistics of {@code metric} of a queue over minutes [from, to), or null when there are no samples. */
    synchronized Aggregate aggregate(String accountId, String name, SqsMetric metric, long from, long to) {
        QueueSeries s = queues.get(key(accountId, name));
        return s == null ? null : s.aggregate(metric, from, to);
    }

    /** The queues of {@code accountId} with a datapoint of {@code metric} at or after {@code since}, in name order. */
    synchronized List<String> queuesWith(String accountId, SqsMetric metric, long since) {
        List<String> names = new ArrayList<>();
        for (QueueSeries s : queues.values()) {
            if (s.accountId.equals(accountId) && s.has(metric, since)) {
                names.add(s.name);
            }
        }
        names.sort(null);
        return names;
    }

    synchronized int size() {
        return queues.size();
    }

    // ---- persistence: a snapshot written whole (temp file, fsync, rename), read at start ----

    synchronized void save(Path file, long nowMinute) throws IOException {
        long since = nowMinute - QueueSeries.SLOTS;
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, java.util.EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.file())) {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel), 1 << 16));
            out.writeInt(MAGIC);
            out.writeInt(FORMAT);
            out.writeInt(queues.size());
            for (QueueSeries s : queues.values()) {
                out.writeUTF(s.accountId);
                out.writeUTF(s.name);
                out.writeBoolean(s.fifo);
                long[] minutes = s.minutesSince(since);
                out.writeInt(minutes.length);
                for (long minute : minutes) {
                    out.writeLong(minute);
                    for (long v : s.valuesAt(minute)) {
                        out.writeLong(v);
                    }
                }
            }
            out.flush();
            channel.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // Some file systems cannot fsync a directory; the rename is still atomic.
        }
    }

    /** Loads a snapshot (datapoints older than 24 h are dropped); a missing file is an empty history. */
    synchronized void load(Path file, long nowMinute) throws IOException {
        long since = nowMinute - QueueSeries.SLOTS;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                throw new IOException("not a Hikyaku CloudWatch metrics file (or an unknown format): " + file);
            }
            int count = in.readInt();
            for (int q = 0; q < count; q++) {
                String account = in.readUTF();
                String name = in.readUTF();
                boolean fifo = in.readBoolean();
                int points = in.readInt();
                QueueSeries s = series(account, name, fifo, nowMinute);
                for (int p = 0; p < points; p++) {
                    long minute = in.readLong();
                    long[] v = new long[QueueSeries.SINGLE + 4];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = in.readLong();
                    }
                    if (s != null && minute >= since) {
                        int n = QueueSeries.SINGLE;
                        s.record(minute, v, v[n], v[n + 1], v[n + 2], v[n + 3]);
                    }
                }
            }
        } catch (NoSuchFileException missing) {
            // first start: nothing kept yet
        }
    }
}
