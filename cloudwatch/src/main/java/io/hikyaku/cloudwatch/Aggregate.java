package io.hikyaku.cloudwatch;

/**
 * The statistics of the samples in one period: CloudWatch's SampleCount, Sum, Minimum, Maximum (and
 * Average). {@code exactCount} keeps a fractional sample count (PutMetricData's Counts may be
 * fractional); for the AWS/SQS series it equals {@code sampleCount}.
 */
record Aggregate(long sampleCount, double sum, double minimum, double maximum, double exactCount) {

    Aggregate(long sampleCount, double sum, double minimum, double maximum) {
        this(sampleCount, sum, minimum, maximum, sampleCount);
    }

    double average() {
        return exactCount == 0 ? 0 : sum / exactCount;
    }

    /** @param stat Sum, Average, Minimum, Maximum or SampleCount */
    double statistic(String stat) {
        return switch (stat) {
            case "Sum" -> sum;
            case "Average" -> average();
            case "Minimum" -> minimum;
            case "Maximum" -> maximum;
            case "SampleCount" -> exactCount;
            default -> throw new IllegalArgumentException(stat);
        };
    }

    Aggregate plus(Aggregate o) {
        if (o == null) {
            return this;
        }
        return new Aggregate(sampleCount + o.sampleCount, sum + o.sum, Math.min(minimum, o.minimum), Math.max(maximum, o.maximum),
                exactCount + o.exactCount);
    }
}
