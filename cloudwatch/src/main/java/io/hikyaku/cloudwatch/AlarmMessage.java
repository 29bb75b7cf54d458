package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * The notification CloudWatch publishes to an SNS topic on a state change: its JSON (AlarmName,
 * AlarmDescription, AWSAccountId, NewStateValue, NewStateReason, StateChangeTime, Region, AlarmArn,
 * OldStateValue, Trigger) and its Subject ({@code ALARM: "name" in US East (N. Virginia)}).
 */
final class AlarmMessage {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter CHANGE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final Map<String, String> REGION_NAMES = Map.ofEntries(
            Map.entry("us-east-1", "US East (N. Virginia)"), Map.entry("us-east-2", "US East (Ohio)"),
            Map.entry("us-west-1", "US West (N. California)"), Map.entry("us-west-2", "US West (Oregon)"),
            Map.entry("eu-west-1", "EU (Ireland)"), Map.entry("eu-west-2", "EU (London)"), Map.entry("eu-west-3", "EU (Paris)"),
            Map.entry("eu-central-1", "EU (Frankfurt)"), Map.entry("eu-north-1", "EU (Stockholm)"),
            Map.entry("ap-northeast-1", "Asia Pacific (Tokyo)"), Map.entry("ap-northeast-2", "Asia Pacific (Seoul)"),
            Map.entry("ap-southeast-1", "Asia Pacific (Singapore)"), Map.entry("ap-southeast-2", "Asia Pacific (Sydney)"),
            Map.entry("ap-south-1", "Asia Pacific (Mumbai)"), Map.entry("sa-east-1", "South America (Sao Paulo)"),
            Map.entry("ca-central-1", "Canada (Central)"));

    private AlarmMessage() {}

    static String regionName(String region) {
        return REGION_NAMES.getOrDefault(region, region);
    }

    /** SNS subjects are at most 100 characters. */
    static String subject(MetricAlarm alarm, String newState, String region) {
        String s = newState + ": \"" + alarm.name + "\" in " + regionName(region);
        return s.length() <= 100 ? s : s.substring(0, 100);
    }

    static String body(MetricAlarm alarm, String oldState, long changedMillis, String region) {
        ObjectNode o = JSON.createObjectNode();
        o.put("AlarmName", alarm.name);
        if (alarm.description == null) {
            o.putNull("AlarmDescription");
        } else {
            o.put("AlarmDescription", alarm.description);
        }
        o.put("AWSAccountId", alarm.accountId);
        o.put("NewStateValue", alarm.state);
        o.put("NewStateReason", alarm.stateReason);
        o.put("StateChangeTime", CHANGE_TIME.format(Instant.ofEpochMilli(changedMillis)));
        o.put("Region", regionName(region));
        o.put("AlarmArn", alarm.arn(region));
        o.put("OldStateValue", oldState);
        ObjectNode t = o.putObject("Trigger");
        if (!alarm.isMath()) {
            t.put("MetricName", alarm.metricName);
            t.put("Namespace", alarm.namespace);
            t.put("StatisticType", "Statistic");
            t.put("Statistic", alarm.statistic.toUpperCase(Locale.ROOT));
            if (alarm.unit == null) {
                t.putNull("Unit");
            } else {
                t.put("Unit", alarm.unit);
            }
            ArrayNode dims = t.putArray("Dimensions");
            for (MetricKey.Dimension d : alarm.dimensions) {
                dims.addObject().put("value", d.value()).put("name", d.name());
            }
        }
        t.put("Period", alarm.period);
        t.put("EvaluationPeriods", alarm.rule.evaluationPeriods());
        t.put("DatapointsToAlarm", alarm.rule.datapointsToAlarm());
        t.put("ComparisonOperator", alarm.rule.comparisonOperator());
        t.put("Threshold", alarm.rule.threshold());
        t.put("TreatMissingData", alarm.rule.treatMissingData());
        t.put("EvaluateLowSampleCountPercentile", "");
        if (alarm.isMath()) {
            t.set("Metrics", triggerMetrics(alarm.metrics));
        }
        return o.toString();
    }

    /** The Metrics of a math alarm's Trigger: dimensions written {value, name} as CloudWatch writes them there. */
    private static ArrayNode triggerMetrics(JsonNode metrics) {
        ArrayNode out = metrics.deepCopy();
        for (JsonNode q : out) {
            JsonNode dims = q.path("MetricStat").path("Metric").path("Dimensions");
            if (dims.isArray()) {
                ArrayNode lower = JSON.createArrayNode();
                for (JsonNode d : dims) {
                    lower.addObject().put("value", d.path("Value").asText()).put("name", d.path("Name").asText());
                }
                ((ObjectNode) q.get("MetricStat").get("Metric")).set("Dimensions", lower);
            }
        }
        return out;
    }
}
