package io.hikyaku.cloudwatch;

import java.util.TreeMap;

/**
 * One time series of a GetMetricData answer: values by period start (epoch seconds), ascending, its
 * label and its period (seconds), which FILL needs to know which timestamps are missing.
 */
record MathSeries(String label, long periodSeconds, TreeMap<Long, Double> points) {}
