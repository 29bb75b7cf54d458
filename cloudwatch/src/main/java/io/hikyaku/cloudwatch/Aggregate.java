package io.hikyaku.cloudwatch;

/** The statistics of the samples in one period: CloudWatch's SampleCount, Sum, Minimum, Maximum (and Average). */
record Aggregate(long sampleCount, double sum, double minimum, double maximum) {

    double average() {
        return sampleCount == 0 ? 0 : sum / sampleCount;
    }

    /** @param stat Sum, Average, Minimum, Maximum or SampleCount */
    double statistic(String stat) {
        return switch (stat) {
            case "Sum" -> sum;
            case "Average" -> average();
            case "Minimum" -> minimum;
            case "Maximum" -> maximum;
            case "SampleCount" -> sampleCount;
            default -> throw new IllegalArgumentException(stat);
        };
    }

    Aggregate plus(Aggregate o) {
        if (o == null) {
            return this;
        }
        return new Aggregate(sampleCount + o.sampleCount, sum + o.sum, Math.min(minimum, o.minimum), Math.max(maximum, o.maximum));
    }
}
