package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.List;
import java.util.TreeMap;

/**
 * Reads the kept datapoints of one metric, AWS/SQS (the sampled queue history), another service's AWS/
 * namespace ({@link ServiceMetrics}) or custom (PutMetricData), for one account: the statistics of a period, or a series of periods aligned on the
 * requested start. The one place that knows where a metric's datapoints live.
 */
final class MetricReader {

    /** A metric found: its datapoints over minutes [from, to), and its unit. */
    interface Source {
        Aggregate aggregate(long fromMinute, long toMinute);

        /** The unit to answer with ("None" for a custom metric published without one). */
        String unit();
    }

    private final MetricHistory history;
    private final CustomMetrics custom;
    /** Other services' AWS/ metrics ({@link ServiceMetrics}). */
    private final CustomMetrics services;
    private final Clock clock;

    MetricReader(MetricHistory history, CustomMetrics custom, Clock clock) {
        this(history, custom, new CustomMetrics(0, 0), clock);
    }

    MetricReader(MetricHistory history, CustomMetrics custom, CustomMetrics services, Clock clock) {
        this.history = history;
        this.custom = custom;
        this.services = services;
        this.clock = clock;
    }

    /** The custom and service metrics with a datapoint at or after {@code since}, in namespace/name order (ListMetrics). */
    List<MetricKey> keptKeys(String accountId, long since) {
        List<MetricKey> keys = new java.util.ArrayList<>(services.keys(accountId, since));
        keys.addAll(custom.keys(accountId, since));
        return keys;
    }

    Clock clock() {
        return clock;
    }

    /**
     * The metric of that namespace, name and dimensions (exactly those), or null when nothing is kept
     * for it. A unit given must match the metric's.
     */
    Source find(String accountId, String namespace, String metricName, List<MetricKey.Dimension> dimensions, String unit) {
        if (namespace == null) {
            return null;
        }
        if (namespace.equals(SqsMetric.NAMESPACE)) {
            SqsMetric metric = SqsMetric.byName(metricName);
            if (metric == null || dimensions.size() != 1 || !dimensions.get(0).name().equals(SqsMetric.DIMENSION)
                    || unit != null && !unit.equals(metric.unit)) {
                return null;
            }
            String queue = dimensions.get(0).value();
            return new Source() {
                @Override public Aggregate aggregate(long from, long to) {
                    return history.aggregate(accountId, queue, metric, from, to);
                }

                @Override public String unit() {
                    return metric.unit;
                }
            };
        }
        MetricKey key = new MetricKey(namespace, metricName, dimensions);
        CustomMetrics store = namespace.startsWith("AWS/") ? services : custom; // PutMetricData refuses AWS/ names
        return new Source() {
            @Override public Aggregate aggregate(long from, long to) {
                return store.aggregate(accountId, key, unit, from, to);
            }

            @Override public String unit() {
                String u = store.unit(accountId, key);
                return u == null ? "None" : u;
            }
        };
    }

    /** As {@link #find}, the dimensions given as the request's Dimensions list (checked: names and values present, at most 30). */
    Source find(String accountId, String namespace, String metricName, JsonNode dimensions, String path, String unit) {
        List<MetricKey.Dimension> dims = PutMetricDataInput.dimensions(dimensions == null || !dimensions.isArray()
                ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode() : dimensions, path);
        return find(accountId, namespace, metricName, dims, unit);
    }

    /**
     * One statistic per period of {@code periodMinutes}, periods aligned on {@code from}, over
     * [from, to): periods with no datapoint are absent. Periods wholly older than the 24 h kept are
     * skipped, so a query over years costs no more than one over a day.
     */
    TreeMap<Long, Double> series(Source source, String statistic, long periodMinutes, long from, long to) {
        TreeMap<Long, Double> points = new TreeMap<>();
        if (source == null) {
            return points;
        }
        long now = MetricSampler.minuteOf(clock.millis());
        long keptFrom = now - QueueSeries.SLOTS - 1;
        long first = from >= keptFrom ? from : from + (keptFrom - from) / periodMinutes * periodMinutes;
        for (long bucket = first; bucket < to && bucket <= now; bucket += periodMinutes) {
            Aggregate a = source.aggregate(bucket, Math.min(bucket + periodMinutes, to));
            if (a != null) {
                points.put(bucket * 60, a.statistic(statistic));
            }
        }
        return points;
    }
}
