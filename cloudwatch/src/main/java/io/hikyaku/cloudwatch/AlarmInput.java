package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PutMetricAlarm's input, checked: a single metric (Namespace, MetricName, Statistic, Period ...) or a
 * metric-math {@code Metrics} list (exactly one query returning data), the rule, the actions (SNS topic
 * ARNs only: nothing else can be executed here) and tags.
 */
final class AlarmInput {

    static final int MAX_ACTIONS = 5;
    static final int MAX_METRICS = 20;
    static final int MAX_TAGS = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private AlarmInput() {}

    /** Fills {@code alarm}'s configuration from the request (its state is left alone). */
    static void read(JsonNode in, MetricAlarm alarm, MetricReader reader) {
        String description = Input.text(in, "AlarmDescription");
        if (description != null && description.length() > 1024) {
            throw CloudWatchException.invalidValue("The parameter AlarmDescription must be no longer than 1024 characters.");
        }
        String enabled = Input.text(in, "ActionsEnabled");
        List<String> ok = actions(in, "OKActions");
        List<String> onAlarm = actions(in, "AlarmActions");
        List<String> insufficient = actions(in, "InsufficientDataActions");
        String operator = Input.required(in, "ComparisonOperator", "ComparisonOperator");
        if (AlarmRule.BAND_OPERATORS.contains(operator)) {
            throw CloudWatchException.invalidValue("The value " + operator + " for parameter ComparisonOperator is not supported by this "
                    + "server: anomaly detection bands are not served.");
        }
        if (!AlarmRule.OPERATORS.contains(operator)) {
            throw CloudWatchException.invalidValue("The value " + operator + " for parameter ComparisonOperator is not valid.");
        }
        if (Input.text(in, "ThresholdMetricId") != null) {
            throw CloudWatchException.invalidValue("The parameter ThresholdMetricId is not supported by this server: anomaly detection bands are not served.");
        }
        if (Input.get(in, "Threshold").isMissingNode()) {
            throw CloudWatchException.missing("Threshold");
        }
        double threshold = PutMetricDataInput.value(Input.get(in, "Threshold"), "Threshold");
        long n = Input.integer(in, "EvaluationPeriods", "EvaluationPeriods", true);
        if (n < 1) {
            throw CloudWatchException.invalidValue("The parameter EvaluationPeriods must be greater than or equal to 1.");
        }
        long m = Input.integer(in, "DatapointsToAlarm", "DatapointsToAlarm", false);
        if (m == Long.MIN_VALUE) {
            m = n;
        }
        if (m < 1) {
            throw CloudWatchException.invalidValue("The parameter DatapointsToAlarm must be greater than or equal to 1.");
        }
        if (m > n) {
            throw CloudWatchException.validation("DatapointsToAlarm must be less than or equal to EvaluationPeriods.");
        }
        String treat = Input.text(in, "TreatMissingData");
        if (treat == null) {
            treat = "missing";
        }
        if (!AlarmRule.MISSING.contains(treat)) {
            throw CloudWatchException.invalidValue("The value " + treat
                    + " for parameter TreatMissingData is not valid. Valid values are missing, notBreaching, breaching and ignore.");
        }
        if (Input.text(in, "ExtendedStatistic") != null) {
            throw CloudWatchException.invalidValue("ExtendedStatistic (percentiles) is not available: this server keeps "
                    + "SampleCount, Average, Sum, Minimum and Maximum.");
        }
        boolean single = Input.text(in, "MetricName") != null || Input.text(in, "Namespace") != null || Input.text(in, "Statistic") != null;
        boolean math = !Input.get(in, "Metrics").isMissingNode();
        if (single && math) {
            throw CloudWatchException.combination("The parameters Metrics and MetricName, Namespace or Statistic are mutually exclusive "
                    + "and you have specified both.");
        }
        long period;
        if (math) {
            JsonNode list = Input.list(in, "Metrics", "Metrics");
            if (list.isEmpty() || list.size() > MAX_METRICS) {
                throw CloudWatchException.invalidValue("The collection Metrics must have between 1 and " + MAX_METRICS + " items.");
            }
            ArrayNode normalized = normalize(list);
            MetricDataQueries parsed = MetricDataQueries.parse(reader, alarm.accountId, normalized, "Metrics");
            if (parsed.returned() != 1) {
                throw CloudWatchException.validation("Exactly one element of the metrics list should return data.");
            }
            period = mathPeriod(normalized);
            alarm.metrics = normalized;
            alarm.namespace = null;
            alarm.metricName = null;
            alarm.dimensions = List.of();
            alarm.statistic = null;
            alarm.unit = null;
        } else {
            String namespace = Input.required(in, "Namespace", "Namespace");
            String metricName = Input.required(in, "MetricName", "MetricName");
            String statistic = Input.text(in, "Statistic");
            if (statistic == null) {
                throw CloudWatchException.missing("Statistic");
            }
            if (!CloudWatchApi.STATISTICS.contains(statistic)) {
                throw CloudWatchException.invalidValue("The value " + statistic
                        + " for parameter Statistic is not valid. Valid values are SampleCount, Average, Sum, Minimum and Maximum.");
            }
            period = Input.integer(in, "Period", "Period", true);
            alarm.metrics = null;
            alarm.namespace = namespace;
            alarm.metricName = metricName;
            alarm.dimensions = PutMetricDataInput.dimensions(Input.list(in, "Dimensions", "Dimensions"), "Dimensions");
            alarm.statistic = statistic;
            alarm.unit = MetricUnits.check(Input.text(in, "Unit"), "Unit");
        }
        if (period < 60 || period % 60 != 0) {
            throw CloudWatchException.invalidValue("The parameter Period must be a multiple of 60: this server keeps one-minute datapoints, "
                    + "so alarms on 10 or 30 second periods are not served.");
        }
        if (period * n > 86400) {
            throw CloudWatchException.validation("Metrics cannot be checked across more than a day (EvaluationPeriods * Period must be <= 86400).");
        }
        alarm.description = description;
        alarm.actionsEnabled = enabled == null || !enabled.equals("false");
        alarm.okActions = ok;
        alarm.alarmActions = onAlarm;
        alarm.insufficientDataActions = insufficient;
        alarm.period = period;
        alarm.rule = new AlarmRule(operator, threshold, (int) n, (int) m, treat);
    }

    /** The Metrics list with typed values (numbers, booleans), as DescribeAlarms answers it and the alarms file keeps it. */
    private static ArrayNode normalize(JsonNode list) {
        ArrayNode out = JSON.createArrayNode();
        for (int i = 0; i < list.size(); i++) {
            JsonNode q = list.get(i);
            String path = "Metrics.member." + (i + 1);
            ObjectNode o = out.addObject();
            o.put("Id", Input.required(q, "Id", path + ".Id"));
            JsonNode stat = Input.get(q, "MetricStat");
            if (!stat.isMissingNode()) {
                ObjectNode s = o.putObject("MetricStat");
                JsonNode metric = Input.get(stat, "Metric");
                ObjectNode mo = s.putObject("Metric");
                if (Input.text(metric, "Namespace") != null) {
                    mo.put("Namespace", Input.text(metric, "Namespace"));
                }
                if (Input.text(metric, "MetricName") != null) {
                    mo.put("MetricName", Input.text(metric, "MetricName"));
                }
                ArrayNode dims = mo.putArray("Dimensions");
                for (JsonNode d : Input.list(metric, "Dimensions", path + ".MetricStat.Metric.Dimensions")) {
                    ObjectNode dn = dims.addObject();
                    if (Input.text(d, "Name") != null) {
                        dn.put("Name", Input.text(d, "Name"));
                    }
                    if (Input.text(d, "Value") != null) {
                        dn.put("Value", Input.text(d, "Value"));
                    }
                }
                long p = Input.integer(stat, "Period", path + ".MetricStat.Period", true);
                s.put("Period", p);
                if (Input.text(stat, "Stat") != null) {
                    s.put("Stat", Input.text(stat, "Stat"));
                }
                if (Input.text(stat, "Unit") != null) {
                    s.put("Unit", Input.text(stat, "Unit"));
                }
            }
            if (Input.text(q, "Expression") != null) {
                o.put("Expression", Input.text(q, "Expression"));
            }
            if (Input.text(q, "Label") != null) {
                o.put("Label", Input.text(q, "Label"));
            }
            String rd = Input.text(q, "ReturnData");
            o.put("ReturnData", rd == null || !rd.equals("false"));
            long p = Input.integer(q, "Period", path + ".Period", false);
            if (p != Long.MIN_VALUE) {
                o.put("Period", p);
            }
            if (Input.text(q, "AccountId") != null) {
                throw CloudWatchException.invalidValue("The parameter " + path + ".AccountId is not supported: an alarm watches its own account's metrics.");
            }
        }
        return out;
    }

    /** The period of a math alarm: the returned query's Period, else the smallest MetricStat period. */
    private static long mathPeriod(ArrayNode normalized) {
        long smallest = Long.MAX_VALUE;
        for (JsonNode q : normalized) {
            if (q.get("ReturnData").asBoolean() && q.has("Period")) {
                return q.get("Period").asLong();
            }
            if (q.has("MetricStat")) {
                smallest = Math.min(smallest, q.get("MetricStat").get("Period").asLong());
            }
        }
        return smallest == Long.MAX_VALUE ? 60 : smallest;
    }

    private static List<String> actions(JsonNode in, String field) {
        JsonNode list = Input.list(in, field, field);
        if (list.size() > MAX_ACTIONS) {
            throw CloudWatchException.invalidValue("The collection " + field + " must not have a size greater than " + MAX_ACTIONS + ".");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode a : list) {
            String arn = a.asText();
            if (!arn.matches("arn:aws:sns:[a-z0-9-]+:\\d{12}:[A-Za-z0-9_.-]{1,256}")) {
                throw CloudWatchException.validation("Invalid " + field + " " + arn
                        + ": this server executes SNS topic actions only (arn:aws:sns:<region>:<account>:<topic>).");
            }
            out.add(arn);
        }
        return List.copyOf(out);
    }

    /** The Tags list (at most 50; keys 1-128 characters, not aws:, values up to 256). */
    static Map<String, String> tags(JsonNode in, String field) {
        JsonNode list = Input.list(in, field, field);
        if (list.size() > MAX_TAGS) {
            throw CloudWatchException.invalidValue("The collection " + field + " must not have a size greater than " + MAX_TAGS + ".");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String key = Input.required(list.get(i), "Key", field + ".member." + (i + 1) + ".Key");
            String value = Input.required(list.get(i), "Value", field + ".member." + (i + 1) + ".Value");
            if (key.isEmpty() || key.length() > 128 || value.length() > 256) {
                throw CloudWatchException.invalidValue("The tag " + key + " is not valid: keys are 1 to 128 characters, values at most 256.");
            }
            if (key.startsWith("aws:")) {
                throw CloudWatchException.invalidValue("The tag key " + key + " is not valid: the aws: prefix is reserved.");
            }
            out.put(key, value);
        }
        return out;
    }
}
