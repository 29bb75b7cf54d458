package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One metric alarm: its configuration as PutMetricAlarm gave it (a single metric, or a metric-math
 * {@code metrics} list), its state, and its tags. Mutable under {@link Alarms}' lock only; saved and
 * loaded as JSON (the alarms file).
 */
final class MetricAlarm {

    private static final ObjectMapper JSON = new ObjectMapper();

    final String accountId;
    final String name;
    String description;
    boolean actionsEnabled = true;
    List<String> okActions = List.of();
    List<String> alarmActions = List.of();
    List<String> insufficientDataActions = List.of();
    /** Single-metric alarms: the metric and its statistic; null for a metric-math alarm. */
    String namespace;
    String metricName;
    List<MetricKey.Dimension> dimensions = List.of();
    String statistic;
    String unit;
    long period;
    /** Metric-math alarms: the MetricDataQuery list, normalized (typed values); null for a single-metric alarm. */
    JsonNode metrics;
    AlarmRule rule;
    long configUpdatedMillis;
    String state = AlarmEvaluation.INSUFFICIENT_DATA;
    String stateReason = "Unchecked: Initial alarm creation";
    String stateReasonData;
    long stateUpdatedMillis;
    long stateTransitionedMillis;
    Map<String, String> tags = new LinkedHashMap<>();

    MetricAlarm(String accountId, String name) {
        this.accountId = accountId;
        this.name = name;
    }

    boolean isMath() {
        return metrics != null;
    }

    String arn(String region) {
        return "arn:aws:cloudwatch:" + region + ":" + accountId + ":alarm:" + name;
    }

    /** The actions of a state. */
    List<String> actionsFor(String newState) {
        return switch (newState) {
            case AlarmEvaluation.ALARM -> alarmActions;
            case AlarmEvaluation.OK -> okActions;
            default -> insufficientDataActions;
        };
    }

    /** The MetricAlarm shape of DescribeAlarms. */
    Map<String, Object> tree(String region) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("AlarmName", name);
        t.put("AlarmArn", arn(region));
        if (description != null) {
            t.put("AlarmDescription", description);
        }
        t.put("AlarmConfigurationUpdatedTimestamp", Instant.ofEpochMilli(configUpdatedMillis));
        t.put("ActionsEnabled", actionsEnabled);
        t.put("OKActions", new ArrayList<Object>(okActions));
        t.put("AlarmActions", new ArrayList<Object>(alarmActions));
        t.put("InsufficientDataActions", new ArrayList<Object>(insufficientDataActions));
        t.put("StateValue", state);
        t.put("StateReason", stateReason);
        if (stateReasonData != null) {
            t.put("StateReasonData", stateReasonData);
        }
        t.put("StateUpdatedTimestamp", Instant.ofEpochMilli(stateUpdatedMillis));
        if (!isMath()) {
            t.put("MetricName", metricName);
            t.put("Namespace", namespace);
            t.put("Statistic", statistic);
            t.put("Dimensions", CloudWatchApi.dimensionTrees(dimensions));
            t.put("Period", period);
            if (unit != null) {
                t.put("Unit", unit);
            }
        }
        t.put("EvaluationPeriods", (long) rule.evaluationPeriods());
        t.put("DatapointsToAlarm", (long) rule.datapointsToAlarm());
        t.put("Threshold", rule.threshold());
        t.put("ComparisonOperator", rule.comparisonOperator());
        t.put("TreatMissingData", rule.treatMissingData());
        if (isMath()) {
            t.put("Metrics", JSON.convertValue(metrics, List.class));
        }
        t.put("StateTransitionedTimestamp", Instant.ofEpochMilli(stateTransitionedMillis));
        return t;
    }

    // ---- the alarms file ----

    ObjectNode toJson() {
        ObjectNode o = JSON.createObjectNode();
        o.put("account", accountId);
        o.put("name", name);
        if (description != null) {
            o.put("description", description);
        }
        o.put("actionsEnabled", actionsEnabled);
        o.set("okActions", JSON.valueToTree(okActions));
        o.set("alarmActions", JSON.valueToTree(alarmActions));
        o.set("insufficientDataActions", JSON.valueToTree(insufficientDataActions));
        if (!isMath()) {
            o.put("namespace", namespace);
            o.put("metricName", metricName);
            ArrayNode d = o.putArray("dimensions");
            for (MetricKey.Dimension x : dimensions) {
                d.addObject().put("name", x.name()).put("value", x.value());
            }
            o.put("statistic", statistic);
            if (unit != null) {
                o.put("unit", unit);
            }
            o.put("period", period);
        } else {
            o.set("metrics", metrics);
        }
        o.put("comparisonOperator", rule.comparisonOperator());
        o.put("threshold", rule.threshold());
        o.put("evaluationPeriods", rule.evaluationPeriods());
        o.put("datapointsToAlarm", rule.datapointsToAlarm());
        o.put("treatMissingData", rule.treatMissingData());
        o.put("configUpdated", configUpdatedMillis);
        o.put("state", state);
        o.put("stateReason", stateReason);
        if (stateReasonData != null) {
            o.put("stateReasonData", stateReasonData);
        }
        o.put("stateUpdated", stateUpdatedMillis);
        o.put("stateTransitioned", stateTransitionedMillis);
        o.set("tags", JSON.valueToTree(tags));
        return o;
    }

    static MetricAlarm fromJson(JsonNode o) {
        MetricAlarm a = new MetricAlarm(o.get("account").asText(), o.get("name").asText());
        a.description = o.hasNonNull("description") ? o.get("description").asText() : null;
        a.actionsEnabled = o.get("actionsEnabled").asBoolean();
        a.okActions = texts(o.get("okActions"));
        a.alarmActions = texts(o.get("alarmActions"));
        a.insufficientDataActions = texts(o.get("insufficientDataActions"));
        if (o.hasNonNull("metrics")) {
            a.metrics = o.get("metrics");
        } else {
            a.namespace = o.get("namespace").asText();
            a.metricName = o.get("metricName").asText();
            List<MetricKey.Dimension> d = new ArrayList<>();
            for (JsonNode x : o.get("dimensions")) {
                d.add(new MetricKey.Dimension(x.get("name").asText(), x.get("value").asText()));
            }
            a.dimensions = List.copyOf(d);
            a.statistic = o.get("statistic").asText();
            a.unit = o.hasNonNull("unit") ? o.get("unit").asText() : null;
            a.period = o.get("period").asLong();
        }
        a.rule = new AlarmRule(o.get("comparisonOperator").asText(), o.get("threshold").asDouble(), o.get("evaluationPeriods").asInt(),
                o.get("datapointsToAlarm").asInt(), o.get("treatMissingData").asText());
        a.configUpdatedMillis = o.get("configUpdated").asLong();
        a.state = o.get("state").asText();
        a.stateReason = o.get("stateReason").asText();
        a.stateReasonData = o.hasNonNull("stateReasonData") ? o.get("stateReasonData").asText() : null;
        a.stateUpdatedMillis = o.get("stateUpdated").asLong();
        a.stateTransitionedMillis = o.get("stateTransitioned").asLong();
        o.get("tags").fields().forEachRemaining(e -> a.tags.put(e.getKey(), e.getValue().asText()));
        return a;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(x -> out.add(x.asText()));
        }
        return List.copyOf(out);
    }
}
