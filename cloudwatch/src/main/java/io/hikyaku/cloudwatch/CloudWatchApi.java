package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GetMetricStatistics, GetMetricData (MetricStat queries) and ListMetrics over the kept AWS/SQS
 * history of one account, protocol-neutral: input is the decoded parameter tree, output a tree of
 * maps, lists, strings, numbers and {@link Instant}s that the wire encoders write.
 */
final class CloudWatchApi {

    static final List<String> STATISTICS = List.of("SampleCount", "Average", "Sum", "Minimum", "Maximum");
    private static final int MAX_DATAPOINTS = 1440;
    private static final int MAX_QUERIES = 500;
    private static final int LIST_PAGE = 500;

    private final MetricHistory history;
    private final CustomMetrics custom;
    private final MetricReader reader;
    private final String accountId;
    private final Clock clock;

    private final Alarms alarms;
    private final AlarmApi alarmApi;

    CloudWatchApi(MetricHistory history, CustomMetrics custom, String accountId, Clock clock) {
        this(history, custom, new MetricReader(history, custom, clock), null, accountId, clock);
    }

    CloudWatchApi(MetricHistory history, CustomMetrics custom, MetricReader reader, Alarms alarms, String accountId, Clock clock) {
        this.history = history;
        this.custom = custom;
        this.reader = reader;
        this.accountId = accountId;
        this.clock = clock;
        this.alarms = alarms != null ? alarms : new Alarms(reader, clock, null, Alarms.DEFAULT_MAX_PER_ACCOUNT, Alarms.INLINE);
        this.alarmApi = new AlarmApi(this.alarms, accountId);
    }

    /** The region in alarm ARNs. */
    String region() {
        return alarms.region();
    }

    /** The same API answering for another account's metrics and alarms. */
    CloudWatchApi forAccount(String account) {
        return account == null || account.equals(accountId) ? this : new CloudWatchApi(history, custom, reader, alarms, account, clock);
    }

    /** Runs an operation of the table ({@link CloudWatchOperations}), already found and authorized. */
    Map<String, Object> invoke(CloudWatchOperations.Operation op, JsonNode in) {
        return switch (op) {
            case GET_METRIC_STATISTICS -> getMetricStatistics(in);
            case GET_METRIC_DATA -> getMetricData(in);
            case LIST_METRICS -> listMetrics(in);
            case PUT_METRIC_DATA -> putMetricData(in);
            case PUT_METRIC_ALARM -> alarmApi.putMetricAlarm(in);
            case DESCRIBE_ALARMS -> alarmApi.describeAlarms(in);
            case DESCRIBE_ALARMS_FOR_METRIC -> alarmApi.describeAlarmsForMetric(in);
            case DELETE_ALARMS -> alarmApi.deleteAlarms(in);
            case SET_ALARM_STATE -> alarmApi.setAlarmState(in);
            case ENABLE_ALARM_ACTIONS -> alarmApi.setActionsEnabled(in, true);
            case DISABLE_ALARM_ACTIONS -> alarmApi.setActionsEnabled(in, false);
            case DESCRIBE_ALARM_HISTORY -> alarmApi.describeAlarmHistory(in);
            case TAG_RESOURCE -> alarmApi.tagResource(in);
            case UNTAG_RESOURCE -> alarmApi.untagResource(in);
            case LIST_TAGS_FOR_RESOURCE -> alarmApi.listTagsForResource(in);
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
        Periods.check(period, "Period");
        checkRange(start, end);
        long minutes = Periods.minutes(period);
        long from = startMinute(start);
        long to = endMinute(end);
        double requested = Math.ceil(((double) to - from) / minutes);
        if (requested > MAX_DATAPOINTS) {
            throw CloudWatchException.combination("You have requested up to " + String.format("%.0f", requested) + " datapoints, which exceeds the limit of "
                    + MAX_DATAPOINTS + ". You may reduce the datapoints requested by increasing Period, or decreasing the time range.");
        }
        String unit = MetricUnits.check(Input.text(in, "Unit"), "Unit");
        MetricReader.Source source = reader.find(accountId, namespace, metricName, in.get("Dimensions"), "Dimensions", unit);
        List<Object> datapoints = new ArrayList<>();
        if (source != null) {
            long now = SqsMetricClock.minute(clock);
            long keptFrom = now - QueueSeries.SLOTS - 1;
            long first = from >= keptFrom ? from : from + (keptFrom - from) / minutes * minutes;
            for (long bucket = first; bucket < to && bucket <= now; bucket += minutes) {
                Aggregate a = source.aggregate(bucket, Math.min(bucket + minutes, to));
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
                point.put("Unit", source.unit());
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
        MetricDataQueries parsed = MetricDataQueries.parse(reader, accountId, queries, "MetricDataQueries");
        List<Object> results = new ArrayList<>();
        for (MetricDataQueries.Result r : parsed.run(reader, startMinute(start), endMinute(end))) {
            List<Object> timestamps = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            r.series().points().forEach((t, v) -> {
                timestamps.add(Instant.ofEpochSecond(t));
                values.add(v);
            });
            if (!ascending) {
                java.util.Collections.reverse(timestamps);
                java.util.Collections.reverse(values);
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("Id", r.id());
            result.put("Label", r.label());
            result.put("Timestamps", timestamps);
            result.put("Values", values);
            result.put("StatusCode", "Complete");
            results.add(result);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("MetricDataResults", results);
        out.put("Messages", List.of());
        return out;
    }

    // ---- PutMetricData ----

    private Map<String, Object> putMetricData(JsonNode in) {
        long now = clock.millis();
        custom.record(accountId, PutMetricDataInput.parse(in, now), MetricSampler.minuteOf(now));
        return new LinkedHashMap<>();
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
        if (namespace == null || !namespace.equals(SqsMetric.NAMESPACE)) {
            for (MetricKey key : reader.keptKeys(accountId, SqsMetricClock.minute(clock) - QueueSeries.SLOTS)) {
                if (namespace != null && !namespace.equals(key.namespace()) || metricName != null && !metricName.equals(key.metricName())
                        || !matches(key, filters)) {
                    continue;
                }
                metrics.add(metricTree(key));
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

    /** Whether the metric has every dimension of the filter (a filter without Value matches any value). */
    private static boolean matches(MetricKey key, JsonNode filters) {
        for (JsonNode f : filters) {
            String name = Input.text(f, "Name");
            String value = Input.text(f, "Value");
            boolean found = false;
            for (MetricKey.Dimension d : key.dimensions()) {
                if (d.name().equals(name) && (value == null || value.equals(d.value()))) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** A metric as ListMetrics, DescribeAlarms and the alarm message name it. */
    static Map<String, Object> metricTree(MetricKey key) {
        Map<String, Object> metric = new LinkedHashMap<>();
        metric.put("Namespace", key.namespace());
        metric.put("MetricName", key.metricName());
        metric.put("Dimensions", dimensionTrees(key.dimensions()));
        return metric;
    }

    static List<Object> dimensionTrees(List<MetricKey.Dimension> dims) {
        List<Object> out = new ArrayList<>();
        for (MetricKey.Dimension d : dims) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("Name", d.name());
            t.put("Value", d.value());
            out.add(t);
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

    private static void checkRange(Instant start, Instant end) {
        if (!start.isBefore(end)) {
            throw CloudWatchException.invalidValue("The parameter StartTime must be less than the parameter EndTime.");
        }
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
