package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * GetMetricStatistics, GetMetricData (MetricStat queries) and ListMetrics over the kept AWS/SQS
 * history of one account, protocol-neutral: input is the decoded parameter tree, output a tree of
 * maps, lists, strings, numbers and {@link Instant}s that the wire encoders write.
 */
final class CloudWatchApi {

    static final List<String> STATISTICS = List.of("SampleCount", "Average", "Sum", "Minimum", "Maximum");
    private static final Pattern QUERY_ID = Pattern.compile("[a-z][a-zA-Z0-9_]*");
    private static final int MAX_DATAPOINTS = 1440;
    private static final int MAX_QUERIES = 500;
    private static final int LIST_PAGE = 500;

    private final MetricHistory history;
    private final String accountId;
    private final Clock clock;

    CloudWatchApi(MetricHistory history, String accountId, Clock clock) {
        this.history = history;
        this.accountId = accountId;
        this.clock = clock;
    }

    /** The same API answering for another account's queues. */
    CloudWatchApi forAccount(String account) {
        return account == null || account.equals(accountId) ? this : new CloudWatchApi(history, account, clock);
    }

    /** Runs an operation of the table ({@link CloudWatchOperations}), already found and authorized. */
    Map<String, Object> invoke(CloudWatchOperations.Operation op, JsonNode in) {
        return switch (op) {
            case GET_METRIC_STATISTICS -> getMetricStatistics(in);
            case GET_METRIC_DATA -> getMetricData(in);
            case LIST_METRICS -> listMetrics(in);
        };
    }

    // ---- GetMetricStatistics ----

    private Map<String, Object> getMetricStatistics(JsonNode in) {
        String namespace = Input.required(in, "Namespace", "Namespace");
        String metricName = Input.required(in, "MetricName", "MetricName");
        Instant start = Input.time(in, "StartTime", "StartTime");
        Instant end = Input.time(in, "EndTime", "EndTime");
        long period = Input.integer(in, "Period", "Period", true);
        JsonNode statistics = Input.list(in, "Statistics", "Statistics");
        JsonNode extended = Input.list(in, "ExtendedStatistics", "ExtendedStatistics");
        if (statistics.isEmpty() == extended.isEmpty()) {
            throw CloudWatchException.combination("Must specify either Statistics or ExtendedStatistics, but not both.");
        }
        if (!extended.isEmpty()) {
            throw CloudWatchException.invalidValue("ExtendedStatistics (percentiles) are not available: this server keeps "
                    + "SampleCount, Average, Sum, Minimum and Maximum.");
        }
        List<String> stats = new ArrayList<>();
        for (int i = 0; i < statistics.size(); i++) {
            String s = statistics.get(i).asText();
            if (!STATISTICS.contains(s)) {
                throw CloudWatchException.invalidValue("The parameter Statistics.member." + (i + 1)
                        + " must be a value in the set [ Average, Sum, SampleCount, Maximum, Minimum ].");
            }
            stats.add(s);
        }
        checkPeriod(period, "Period");
        checkRange(start, end);
        long minutes = periodMinutes(period);
        long from = startMinute(start);
        long to = endMinute(end);
        double requested = Math.ceil(((double) to - from) / minutes);
        if (requested > MAX_DATAPOINTS) {
            throw CloudWatchException.combination("You have requested up to " + String.format("%.0f", requested) + " datapoints, which exceeds the limit of "
                    + MAX_DATAPOINTS + ". You may reduce the datapoints requested by increasing Period, or decreasing the time range.");
        }
        SqsMetric metric = metricOf(namespace, metricName);
        String queue = queueOf(in.get("Dimensions"));
        String unit = Input.text(in, "Unit");
        List<Object> datapoints = new ArrayList<>();
        if (metric != null && queue != null && (unit == null || unit.equals(metric.unit))) {
            for (long bucket = firstKept(from, minutes); bucket < to && bucket <= lastKept(); bucket += minutes) {
                Aggregate a = history.aggregate(accountId, queue, metric, bucket, Math.min(bucket + minutes, to));
                if (a == null) {
                    continue;
                }
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("Timestamp", Instant.ofEpochSecond(bucket * 60));
                for (String s : STATISTICS) {
                    if (stats.contains(s)) {
                        point.put(s, a.statistic(s));
                    }
                }
                point.put("Unit", metric.unit);
                datapoints.add(point);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Label", metricName);
        out.put("Datapoints", datapoints);
        return out;
    }

    // ---- GetMetricData ----

    private Map<String, Object> getMetricData(JsonNode in) {
        if (Input.get(in, "MetricDataQueries").isMissingNode()) {
            throw CloudWatchException.missing("MetricDataQueries");
        }
        JsonNode queries = Input.list(in, "MetricDataQueries", "MetricDataQueries");
        Instant start = Input.time(in, "StartTime", "StartTime");
        Instant end = Input.time(in, "EndTime", "EndTime");
        if (queries.isEmpty()) {
            throw CloudWatchException.invalidValue("The parameter MetricDataQueries must contain at least one query.");
        }
        if (queries.size() > MAX_QUERIES) {
            throw CloudWatchException.invalidValue("The collection MetricDataQueries must not have a size greater than " + MAX_QUERIES + ".");
        }
        String scanBy = Input.text(in, "ScanBy");
        if (scanBy != null && !scanBy.equals("TimestampDescending") && !scanBy.equals("TimestampAscending")) {
            throw CloudWatchException.invalidValue("The value " + scanBy
                    + " for parameter ScanBy is not valid. Valid values are TimestampDescending and TimestampAscending.");
        }
        long maxDatapoints = Input.integer(in, "MaxDatapoints", "MaxDatapoints", false);
        if (maxDatapoints != Long.MIN_VALUE && maxDatapoints < 1) {
            throw CloudWatchException.invalidValue("The parameter MaxDatapoints must be greater than 0.");
        }
        checkRange(start, end);
        boolean ascending = "TimestampAscending".equals(scanBy);
        Set<String> ids = new HashSet<>();
        List<Object> results = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            JsonNode q = queries.get(i);
            String path = "MetricDataQueries.member." + (i + 1);
            String id = Input.required(q, "Id", path + ".Id");
            if (!QUERY_ID.matcher(id).matches() || id.length() > 255) {
                throw CloudWatchException.invalidValue("The value " + id + " for parameter " + path
                        + ".Id is not valid. It must start with a lowercase letter and contain only letters, numbers and underscores.");
            }
            if (!ids.add(id)) {
                throw CloudWatchException.invalidValue("The value " + id + " for parameter " + path + ".Id is not unique.");
            }
            boolean hasStat = !Input.get(q, "MetricStat").isMissingNode();
            boolean hasExpression = Input.text(q, "Expression") != null;
            if (hasStat == hasExpression) {
                throw CloudWatchException.combination("Exactly one of MetricStat and Expression must be set in " + path + ".");
            }
            if (hasExpression) {
                throw CloudWatchException.invalidValue("The parameter " + path
                        + ".Expression is not supported: this server answers MetricStat queries only (no metric math or Metrics Insights).");
            }
            Map<String, Object> result = metricStat(q, Input.get(q, "MetricStat"), path, id, start, end, ascending);
            String returnData = Input.text(q, "ReturnData");
            if (returnData == null || !returnData.equals("false")) {
                results.add(result);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("MetricDataResults", results);
        out.put("Messages", List.of());
        return out;
    }

    private Map<String, Object> metricStat(JsonNode q, JsonNode stat, String path, String id, Instant start, Instant end,
                                           boolean ascending) {
        JsonNode metricNode = Input.get(stat, "Metric");
        if (metricNode.isMissingNode()) {
            throw CloudWatchException.missing(path + ".MetricStat.Metric");
        }
        String metricName = Input.required(metricNode, "MetricName", path + ".MetricStat.Metric.MetricName");
        String namespace = Input.text(metricNode, "Namespace");
        long period = Input.integer(stat, "Period", path + ".MetricStat.Period", true);
        String statistic = Input.required(stat, "Stat", path + ".MetricStat.Stat");
        checkPeriod(period, path + ".MetricStat.Period");
        if (!STATISTICS.contains(statistic)) {
            throw CloudWatchException.invalidValue("The value " + statistic + " for parameter " + path
                    + ".MetricStat.Stat is not supported: use SampleCount, Average, Sum, Minimum or Maximum.");
        }
        long minutes = periodMinutes(period);
        long from = startMinute(start);
        long to = endMinute(end);
        SqsMetric metric = metricOf(namespace, metricName);
        String queue = queueOf(metricNode.get("Dimensions"));
        String unit = Input.text(stat, "Unit");
        List<Object> timestamps = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (metric != null && queue != null && (unit == null || unit.equals(metric.unit))) {
            for (long bucket = firstKept(from, minutes); bucket < to && bucket <= lastKept(); bucket += minutes) {
                Aggregate a = history.aggregate(accountId, queue, metric, bucket, Math.min(bucket + minutes, to));
                if (a != null) {
                    timestamps.add(Instant.ofEpochSecond(bucket * 60));
                    values.add(a.statistic(statistic));
                }
            }
        }
        if (!ascending) {
            java.util.Collections.reverse(timestamps);
            java.util.Collections.reverse(values);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("Id", id);
        String label = Input.text(q, "Label");
        result.put("Label", label != null ? label : metricName);
        result.put("Timestamps", timestamps);
        result.put("Values", values);
        result.put("StatusCode", "Complete");
        return result;
    }

    // ---- ListMetrics ----

    private Map<String, Object> listMetrics(JsonNode in) {
        String namespace = Input.text(in, "Namespace");
        String metricName = Input.text(in, "MetricName");
        JsonNode filters = Input.list(in, "Dimensions", "Dimensions");
        String token = Input.text(in, "NextToken");
        int offset = 0;
        if (token != null) {
            try {
                offset = Integer.parseInt(token);
            } catch (NumberFormatException e) {
                offset = -1;
            }
            if (offset < 0) {
                throw CloudWatchException.invalidValue("The value of the parameter NextToken is not valid.");
            }
        }
        boolean anyQueue = true;
        String queueFilter = null;
        for (int i = 0; i < filters.size(); i++) {
            JsonNode f = filters.get(i);
            String name = Input.required(f, "Name", "Dimensions.member." + (i + 1) + ".Name");
            if (!name.equals(SqsMetric.DIMENSION)) {
                anyQueue = false;
            }
            String value = Input.text(f, "Value");
            if (value != null) {
                queueFilter = value;
            }
        }
        List<Object> metrics = new ArrayList<>();
        if (anyQueue && (namespace == null || namespace.equals(SqsMetric.NAMESPACE))) {
            long since = SqsMetricClock.minute(clock) - QueueSeries.SLOTS;
            for (SqsMetric m : SqsMetric.values()) {
                if (metricName != null && !metricName.equals(m.cloudWatchName)) {
                    continue;
                }
                for (String queue : history.queuesWith(accountId, m, since)) {
                    if (queueFilter == null || queueFilter.equals(queue)) {
                        Map<String, Object> metric = new LinkedHashMap<>();
                        metric.put("Namespace", SqsMetric.NAMESPACE);
                        metric.put("MetricName", m.cloudWatchName);
                        metric.put("Dimensions", List.of(dimension(queue)));
                        metrics.add(metric);
                    }
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        int from = Math.min(offset, metrics.size());
        int to = Math.min(from + LIST_PAGE, metrics.size());
        out.put("Metrics", new ArrayList<>(metrics.subList(from, to)));
        if (to < metrics.size()) {
            out.put("NextToken", Integer.toString(to));
        }
        return out;
    }

    private static Map<String, Object> dimension(String queue) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("Name", SqsMetric.DIMENSION);
        d.put("Value", queue);
        return d;
    }

    // ---- shared checks ----

    /**
     * The first period (aligned on {@code from}) that can hold a kept datapoint: periods wholly older
     * than the 24 h kept are skipped, so a query over years costs no more than one over a day.
     */
    private long firstKept(long from, long minutes) {
        long keptFrom = SqsMetricClock.minute(clock) - QueueSeries.SLOTS - 1;
        if (from >= keptFrom) {
            return from;
        }
        long skip = (keptFrom - from) / minutes;
        return from + skip * minutes;
    }

    /** The newest minute that can hold a datapoint (the current one is still open). */
    private long lastKept() {
        return SqsMetricClock.minute(clock);
    }

    private static SqsMetric metricOf(String namespace, String metricName) {
        return SqsMetric.NAMESPACE.equals(namespace) ? SqsMetric.byName(metricName) : null;
    }

    /** The queue named by exactly one QueueName dimension, or null (no AWS/SQS metric has other dimensions). */
    private static String queueOf(JsonNode dimensions) {
        if (dimensions == null || !dimensions.isArray() || dimensions.size() != 1) {
            if (dimensions != null && dimensions.isArray()) {
                checkDimensions(dimensions);
            }
            return null;
        }
        checkDimensions(dimensions);
        JsonNode d = dimensions.get(0);
        return SqsMetric.DIMENSION.equals(Input.text(d, "Name")) ? Input.text(d, "Value") : null;
    }

    private static void checkDimensions(JsonNode dimensions) {
        if (dimensions.size() > 30) {
            throw CloudWatchException.invalidValue("The collection Dimensions must not have a size greater than 30.");
        }
        for (int i = 0; i < dimensions.size(); i++) {
            JsonNode d = dimensions.get(i);
            Input.required(d, "Name", "Dimensions.member." + (i + 1) + ".Name");
            Input.required(d, "Value", "Dimensions.member." + (i + 1) + ".Value");
        }
    }

    private static void checkPeriod(long period, String path) {
        boolean highResolution = period == 1 || period == 5 || period == 10 || period == 20 || period == 30;
        if (period < 1 || !highResolution && period % 60 != 0) {
            throw CloudWatchException.invalidValue("The parameter " + path + " must be a multiple of 60.");
        }
    }

    private static void checkRange(Instant start, Instant end) {
        if (!start.isBefore(end)) {
            throw CloudWatchException.invalidValue("The parameter StartTime must be less than the parameter EndTime.");
        }
    }

    /** The period in whole minutes (the kept resolution is one minute: shorter periods answer per minute). */
    private static long periodMinutes(long period) {
        return Math.max(1, period / 60);
    }

    /** StartTime rounded down to its minute. */
    private static long startMinute(Instant start) {
        return Math.floorDiv(start.getEpochSecond(), 60);
    }

    /** EndTime (exclusive) rounded up to a minute. */
    private static long endMinute(Instant end) {
        long seconds = end.getEpochSecond() + (end.getNano() > 0 ? 1 : 0);
        return Math.floorDiv(seconds + 59, 60);
    }

    /** The clock's current minute. */
    static final class SqsMetricClock {
        private SqsMetricClock() {}

        static long minute(Clock clock) {
            return MetricSampler.minuteOf(clock.millis());
        }
    }
}
