package io.hikyaku.bench.stats;

import org.HdrHistogram.ConcurrentHistogram;

/** Thread-safe latency histogram in microseconds (1 us .. 10 min, 3 significant digits). */
public final class LatencyRecorder {
    private final ConcurrentHistogram histogram = new ConcurrentHistogram(600_000_000L, 3);

    public void recordNanos(long nanos) {
        histogram.recordValue(Math.max(1, Math.min(nanos / 1000, 600_000_000L)));
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** The percentile in milliseconds, or -1 when nothing was recorded. */
    public double percentileMs(double percentile) {
        if (histogram.getTotalCount() == 0) {
            return -1;
        }
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
