package io.hikyaku.cloudwatch;

import java.util.Set;

/** CloudWatch's StandardUnit values. */
final class MetricUnits {

    static final Set<String> ALL = Set.of("Seconds", "Microseconds", "Milliseconds", "Bytes", "Kilobytes", "Megabytes",
            "Gigabytes", "Terabytes", "Bits", "Kilobits", "Megabits", "Gigabits", "Terabits", "Percent", "Count",
            "Bytes/Second", "Kilobytes/Second", "Megabytes/Second", "Gigabytes/Second", "Terabytes/Second", "Bits/Second",
            "Kilobits/Second", "Megabits/Second", "Gigabits/Second", "Terabits/Second", "Count/Second", "None");

    private MetricUnits() {}

    /** The unit, checked (null when absent). */
    static String check(String unit, String path) {
        if (unit != null && !ALL.contains(unit)) {
            throw CloudWatchException.invalidValue("The value " + unit + " for parameter " + path + " is not a valid unit.");
        }
        return unit;
    }
}
