package io.hikyaku.cloudwatch;

import java.util.Arrays;

/**
 * One custom metric's last 24 hours as 1-minute statistic sets (count, sum, minimum, maximum): a ring
 * of 1440 slots indexed by minute, as the AWS/SQS series are kept. Values published in the same minute
 * merge into that minute's set. About 40 bytes a minute: ~56 KiB per series.
 */
final class CustomSeries {

    static final int SLOTS = QueueSeries.SLOTS;

    final String accountId;
    final MetricKey key;
    /** The unit of the latest datapoint that named one (null: None). */
    String unit;
    private final long[] minuteOf = new long[SLOTS];
    private final double[] count = new double[SLOTS];
    private final double[] sum = new double[SLOTS];
    private final double[] min = new double[SLOTS];
    private final double[] max = new double[SLOTS];

    CustomSeries(String accountId, MetricKey key) {
        this.accountId = accountId;
        this.key = key;
        Arrays.fill(minuteOf, Long.MIN_VALUE);
    }

    /** Adds a statistic set to minute {@code minute}. */
    void add(long minute, double n, double s, double lo, double hi) {
        int slot = slot(minute);
        if (minuteOf[slot] != minute) {
            minuteOf[slot] = minute;
            count[slot] = n;
            sum[slot] = s;
            min[slot] = lo;
            max[slot] = hi;
            return;
        }
        count[slot] += n;
        sum[slot] += s;
        min[slot] = Math.min(min[slot], lo);
        max[slot] = Math.max(max[slot], hi);
    }

    /** The statistics over minutes [from, to), or null when there is no datapoint in them. */
    Aggregate aggregate(long from, long to) {
        double n = 0;
        double s = 0;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        boolean any = false;
        for (long minute = Math.max(from, to - SLOTS); minute < to; minute++) {
            int slot = slot(minute);
            if (minuteOf[slot] == minute) {
                any = true;
                n += count[slot];
                s += sum[slot];
                lo = Math.min(lo, min[slot]);
                hi = Math.max(hi, max[slot]);
            }
        }
        return any ? new Aggregate(Math.round(n), s, lo, hi, n) : null;
    }

    /** The newest minute with a datapoint, or Long.MIN_VALUE. */
    long newest() {
        long newest = Long.MIN_VALUE;
        for (long m : minuteOf) {
            newest = Math.max(newest, m);
        }
        return newest;
    }

    /** The minutes with a datapoint at or after {@code since}, oldest first (for the snapshot). */
    long[] minutesSince(long since) {
        return Arrays.stream(minuteOf).filter(m -> m >= since).sorted().toArray();
    }

    /** count, sum, min, max of a recorded minute (for the snapshot). */
    double[] at(long minute) {
        int slot = slot(minute);
        return new double[] {count[slot], sum[slot], min[slot], max[slot]};
    }

    private static int slot(long minute) {
        return (int) Math.floorMod(minute, (long) SLOTS);
    }
}
