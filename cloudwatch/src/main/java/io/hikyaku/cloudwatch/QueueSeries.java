package io.hikyaku.cloudwatch;

import java.util.Arrays;

/**
 * One queue's last 24 hours of 1-minute datapoints: a ring of 1440 slots indexed by minute. Every
 * metric but SentMessageSize keeps one value per minute (its one sample); SentMessageSize keeps the
 * minute's count, sum, minimum and maximum. About 14 longs per minute: ~160 KiB per queue.
 */
final class QueueSeries {

    static final int SLOTS = 1440;
    static final long ABSENT = Long.MIN_VALUE;
    /** The metrics with one sample a minute, in {@link SqsMetric} order (SentMessageSize excluded). */
    static final int SINGLE = SqsMetric.values().length - 1;

    final String accountId;
    final String name;
    boolean fifo;
    /** The minute (epoch minutes) each slot holds, or -1 when empty. */
    private final long[] minuteOf = new long[SLOTS];
    private final long[][] single = new long[SINGLE][SLOTS];
    private final long[] sizeCount = new long[SLOTS];
    private final long[] sizeSum = new long[SLOTS];
    private final long[] sizeMin = new long[SLOTS];
    private final long[] sizeMax = new long[SLOTS];

    QueueSeries(String accountId, String name, boolean fifo) {
        this.accountId = accountId;
        this.name = name;
        this.fifo = fifo;
        Arrays.fill(minuteOf, -1);
    }

    /**
     * Records minute {@code minute}: {@code values} by {@link SqsMetric} ordinal ({@link #ABSENT} for
     * none), the sizes of the messages sent in it (count 0 = no datapoint).
     */
    void record(long minute, long[] values, long count, long sum, long min, long max) {
        int slot = slot(minute);
        minuteOf[slot] = minute;
        for (int m = 0; m < SINGLE; m++) {
            single[m][slot] = values[m];
        }
        sizeCount[slot] = count;
        sizeSum[slot] = sum;
        sizeMin[slot] = min;
        sizeMax[slot] = max;
    }

    /** The samples of {@code metric} in minutes [from, to), or null when there are none. */
    Aggregate aggregate(SqsMetric metric, long from, long to) {
        Aggregate total = null;
        for (long minute = Math.max(from, to - SLOTS); minute < to; minute++) {
            Aggregate a = at(metric, minute);
            total = total == null ? a : total.plus(a);
        }
        return total;
    }

    /** The one-minute datapoint of {@code metric} at {@code minute}, or null. */
    Aggregate at(SqsMetric metric, long minute) {
        int slot = slot(minute);
        if (minuteOf[slot] != minute) {
            return null;
        }
        if (metric == SqsMetric.SENT_MESSAGE_SIZE) {
            long n = sizeCount[slot];
            return n == 0 ? null : new Aggregate(n, sizeSum[slot], sizeMin[slot], sizeMax[slot]);
        }
        long v = single[metric.ordinal()][slot];
        return v == ABSENT ? null : new Aggregate(1, v, v, v);
    }

    /** Whether {@code metric} has any datapoint at or after {@code since}. */
    boolean has(SqsMetric metric, long since) {
        for (int slot = 0; slot < SLOTS; slot++) {
            if (minuteOf[slot] >= since && at(metric, minuteOf[slot]) != null) {
                return true;
            }
        }
        return false;
    }

    /** The newest minute recorded, or -1. */
    long newest() {
        long newest = -1;
        for (long m : minuteOf) {
            newest = Math.max(newest, m);
        }
        return newest;
    }

    /** The recorded minutes at or after {@code since}, in slot order (for persistence). */
    long[] minutesSince(long since) {
        return Arrays.stream(minuteOf).filter(m -> m >= since).sorted().toArray();
    }

    long[] valuesAt(long minute) {
        int slot = slot(minute);
        long[] v = new long[SINGLE + 4];
        for (int m = 0; m < SINGLE; m++) {
            v[m] = single[m][slot];
        }
        v[SINGLE] = sizeCount[slot];
        v[SINGLE + 1] = sizeSum[slot];
        v[SINGLE + 2] = sizeMin[slot];
        v[SINGLE + 3] = sizeMax[slot];
        return v;
    }

    private static int slot(long minute) {
        return (int) Math.floorMod(minute, (long) SLOTS);
    }
}
