package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * PutMetricData's input, checked as CloudWatch checks it (custom namespaces only, 1000 metrics a
 * call, 30 dimensions, 150 Values, finite values within 2^360, timestamps at most two weeks old and two
 * hours ahead) and turned into 1-minute statistic sets. StorageResolution 1 is accepted and kept at
 * this server's one-minute resolution.
 */
final class PutMetricDataInput {

    static final int MAX_METRICS = 1000;
    static final int MAX_DIMENSIONS = 30;
    static final int MAX_VALUES = 150;
    private static final double LIMIT = Math.pow(2, 360);
    private static final long TWO_WEEKS_MILLIS = 14L * 24 * 3600 * 1000;
    private static final long TWO_HOURS_MILLIS = 2L * 3600 * 1000;

    private PutMetricDataInput() {}

    static List<CustomMetrics.Point> parse(JsonNode in, long nowMillis) {
        String namespace = Input.required(in, "Namespace", "Namespace");
        checkNamespace(namespace);
        if (Input.get(in, "MetricData").isMissingNode()) {
            throw CloudWatchException.missing("MetricData");
        }
        JsonNode data = Input.list(in, "MetricData", "MetricData");
        if (data.isEmpty()) {
            throw CloudWatchException.missing("MetricData");
        }
        if (data.size() > MAX_METRICS) {
            throw CloudWatchException.invalidValue("The collection MetricData must not have a size greater than " + MAX_METRICS + ".");
        }
        List<CustomMetrics.Point> points = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            points.addAll(datum(namespace, data.get(i), "MetricData.member." + (i + 1), nowMillis));
        }
        return points;
    }

    static void checkNamespace(String namespace) {
        if (namespace.isEmpty() || namespace.length() > 255) {
            throw CloudWatchException.invalidValue("The parameter Namespace must be between 1 and 255 characters long.");
        }
        if (namespace.startsWith("AWS/")) {
            throw CloudWatchException.invalidValue("The value " + namespace + " for parameter Namespace is invalid.");
        }
        if (namespace.startsWith(":") || !namespace.matches("[^:].*")) {
            throw CloudWatchException.invalidValue("The value " + namespace + " for parameter Namespace is invalid.");
        }
    }

    private static List<CustomMetrics.Point> datum(String namespace, JsonNode d, String path, long nowMillis) {
        String name = Input.required(d, "MetricName", path + ".MetricName");
        if (name.isEmpty() || name.length() > 255) {
            throw CloudWatchException.invalidValue("The parameter " + path + ".MetricName must be between 1 and 255 characters long.");
        }
        List<MetricKey.Dimension> dims = dimensions(Input.list(d, "Dimensions", path + ".Dimensions"), path + ".Dimensions");
        String unit = MetricUnits.check(Input.text(d, "Unit"), path + ".Unit");
        long storage = Input.integer(d, "StorageResolution", path + ".StorageResolution", false);
        if (storage != Long.MIN_VALUE && storage != 1 && storage != 60) {
            throw CloudWatchException.invalidValue("The value " + storage + " for parameter " + path
                    + ".StorageResolution is not valid. Valid values are 1 and 60.");
        }
        long at = nowMillis;
        if (!Input.get(d, "Timestamp").isMissingNode()) {
            at = Input.time(d, "Timestamp", path + ".Timestamp").toEpochMilli();
            if (at < nowMillis - TWO_WEEKS_MILLIS) {
                throw CloudWatchException.invalidValue("The parameter " + path
                        + ".Timestamp must specify a time no more than two weeks in the past.");
            }
            if (at > nowMillis + TWO_HOURS_MILLIS) {
                throw CloudWatchException.invalidValue("The parameter " + path
                        + ".Timestamp must specify a time no more than two hours in the future.");
            }
        }
        boolean hasValue = !Input.get(d, "Value").isMissingNode();
        boolean hasStats = !Input.get(d, "StatisticValues").isMissingNode();
        JsonNode values = Input.list(d, "Values", path + ".Values");
        JsonNode counts = Input.list(d, "Counts", path + ".Counts");
        boolean hasValues = !values.isEmpty();
        if (hasValue && hasStats) {
            throw CloudWatchException.combination("The parameters " + path + ".Value and " + path
                    + ".StatisticValues are mutually exclusive and you have specified both.");
        }
        if (hasValues && (hasValue || hasStats)) {
            throw CloudWatchException.combination("The parameters " + path + ".Values and " + path + "."
                    + (hasValue ? "Value" : "StatisticValues") + " are mutually exclusive and you have specified both.");
        }
        if (!counts.isEmpty() && !hasValues) {
            throw CloudWatchException.combination("The parameter " + path + ".Counts can only be specified with " + path + ".Values.");
        }
        MetricKey key = new MetricKey(namespace, name, dims);
        long minute = Math.floorDiv(at, 60_000L);
        List<CustomMetrics.Point> out = new ArrayList<>();
        if (hasValue) {
            double v = value(Input.get(d, "Value"), path + ".Value");
            out.add(new CustomMetrics.Point(key, minute, 1, v, v, v, unit));
        } else if (hasStats) {
            JsonNode s = Input.get(d, "StatisticValues");
            String sp = path + ".StatisticValues";
            double n = requiredValue(s, "SampleCount", sp);
            double sum = requiredValue(s, "Sum", sp);
            double lo = requiredValue(s, "Minimum", sp);
            double hi = requiredValue(s, "Maximum", sp);
            if (n <= 0) {
                throw CloudWatchException.invalidValue("The parameter " + sp + ".SampleCount must be greater than 0.");
            }
            if (lo > hi) {
                throw CloudWatchException.invalidValue("The parameter " + sp + ".Minimum must be less than or equal to the parameter "
                        + sp + ".Maximum.");
            }
            out.add(new CustomMetrics.Point(key, minute, n, sum, lo, hi, unit));
        } else if (hasValues) {
            if (values.size() > MAX_VALUES) {
                throw CloudWatchException.invalidValue("The collection " + path + ".Values must not have a size greater than " + MAX_VALUES + ".");
            }
            if (!counts.isEmpty() && counts.size() != values.size()) {
                throw CloudWatchException.combination("The parameters " + path + ".Values and " + path
                        + ".Counts must be of the same size.");
            }
            double n = 0;
            double sum = 0;
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < values.size(); i++) {
                double v = value(values.get(i), path + ".Values.member." + (i + 1));
                double c = counts.isEmpty() ? 1 : value(counts.get(i), path + ".Counts.member." + (i + 1));
                if (c < 0) {
                    throw CloudWatchException.invalidValue("The value " + c + " for parameter " + path + ".Counts.member." + (i + 1)
                            + " is invalid: counts must not be negative.");
                }
                if (c == 0) {
                    continue;
                }
                n += c;
                sum += v * c;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            if (n > 0) {
                out.add(new CustomMetrics.Point(key, minute, n, sum, lo, hi, unit));
            }
        } else {
            throw CloudWatchException.missing(path + ".Value");
        }
        return out;
    }

    static List<MetricKey.Dimension> dimensions(JsonNode dims, String path) {
        if (dims.size() > MAX_DIMENSIONS) {
            throw CloudWatchException.invalidValue("The collection " + path + " must not have a size greater than " + MAX_DIMENSIONS + ".");
        }
        List<MetricKey.Dimension> out = new ArrayList<>();
        for (int i = 0; i < dims.size(); i++) {
            String p = path + ".member." + (i + 1);
            String n = Input.required(dims.get(i), "Name", p + ".Name");
            String v = Input.required(dims.get(i), "Value", p + ".Value");
            if (n.isEmpty() || n.length() > 255) {
                throw CloudWatchException.invalidValue("The parameter " + p + ".Name must be between 1 and 255 characters long.");
            }
            if (v.isEmpty() || v.length() > 1024) {
                throw CloudWatchException.invalidValue("The parameter " + p + ".Value must be between 1 and 1024 characters long.");
            }
            for (MetricKey.Dimension d : out) {
                if (d.name().equals(n)) {
                    throw CloudWatchException.invalidValue("No Metric may specify the same dimension name twice: " + n + ".");
                }
            }
            out.add(new MetricKey.Dimension(n, v));
        }
        return out;
    }

    private static double requiredValue(JsonNode in, String field, String path) {
        JsonNode v = Input.get(in, field);
        if (v.isMissingNode()) {
            throw CloudWatchException.missing(path + "." + field);
        }
        return value(v, path + "." + field);
    }

    static double value(JsonNode v, String path) {
        double d;
        if (v.isNumber()) {
            d = v.asDouble();
        } else {
            try {
                d = Double.parseDouble(v.asText().trim());
            } catch (NumberFormatException e) {
                throw CloudWatchException.invalidValue("The value " + v.asText() + " for parameter " + path + " is invalid.");
            }
        }
        if (!Double.isFinite(d) || Math.abs(d) > LIMIT || d != 0 && Math.abs(d) < 1 / LIMIT) {
            throw CloudWatchException.invalidValue("The value " + (v.isNumber() ? Double.toString(d) : v.asText()) + " for parameter "
                    + path + " is invalid.");
        }
        return d;
    }
}
