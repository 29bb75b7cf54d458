package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The alarm operations of one account over {@link Alarms}: PutMetricAlarm, DescribeAlarms,
 * DescribeAlarmsForMetric, DeleteAlarms, SetAlarmState, Enable/DisableAlarmActions,
 * DescribeAlarmHistory and the tag operations, protocol-neutral (input tree in, output tree out).
 */
final class AlarmApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> STATES = List.of(AlarmEvaluation.OK, AlarmEvaluation.ALARM, AlarmEvaluation.INSUFFICIENT_DATA);

    private final Alarms alarms;
    private final String accountId;

    AlarmApi(Alarms alarms, String accountId) {
        this.alarms = alarms;
        this.accountId = accountId;
    }

    Map<String, Object> putMetricAlarm(JsonNode in) {
        String name = alarmName(Input.required(in, "AlarmName", "AlarmName"), "AlarmName");
        alarms.put(accountId, name, in);
        return new LinkedHashMap<>();
    }

    private static String alarmName(String name, String path) {
        if (name.isEmpty() || name.length() > 255) {
            throw CloudWatchException.invalidValue("The parameter " + path + " must be between 1 and 255 characters long.");
        }
        return name;
    }

    Map<String, Object> describeAlarms(JsonNode in) {
        List<String> names = texts(Input.list(in, "AlarmNames", "AlarmNames"));
        if (names.size() > 100) {
            throw CloudWatchException.invalidValue("The collection AlarmNames must not have a size greater than 100.");
        }
        String prefix = Input.text(in, "AlarmNamePrefix");
        if (prefix != null && !names.isEmpty()) {
            throw CloudWatchException.combination("The parameters AlarmNames and AlarmNamePrefix are mutually exclusive and you have specified both.");
        }
        String state = Input.text(in, "StateValue");
        if (state != null && !STATES.contains(state)) {
            throw CloudWatchException.invalidValue("The value " + state + " for parameter StateValue is not valid. Valid values are OK, ALARM and INSUFFICIENT_DATA.");
        }
        String actionPrefix = Input.text(in, "ActionPrefix");
        List<String> types = texts(Input.list(in, "AlarmTypes", "AlarmTypes"));
        for (String t : types) {
            if (!t.equals("MetricAlarm") && !t.equals("CompositeAlarm")) {
                throw CloudWatchException.invalidValue("The value " + t + " for parameter AlarmTypes is not valid. Valid values are CompositeAlarm and MetricAlarm.");
            }
        }
        if (Input.text(in, "ChildrenOfAlarmName") != null || Input.text(in, "ParentsOfAlarmName") != null) {
            throw CloudWatchException.invalidValue("ChildrenOfAlarmName and ParentsOfAlarmName name composite alarms, which this server does not serve.");
        }
        int max = maxRecords(in, 50);
        boolean metricAlarms = types.isEmpty() || types.contains("MetricAlarm");
        List<MetricAlarm> matching = new ArrayList<>();
        if (metricAlarms) {
            for (MetricAlarm a : alarms.list(accountId)) {
                if (!names.isEmpty() && !names.contains(a.name) || prefix != null && !a.name.startsWith(prefix)
                        || state != null && !state.equals(a.state) || actionPrefix != null && !hasActionPrefix(a, actionPrefix)) {
                    continue;
                }
                matching.add(a);
            }
        }
        int from = offset(Input.text(in, "NextToken"), matching.size());
        int to = Math.min(matching.size(), from + max);
        List<Object> page = new ArrayList<>();
        synchronized (alarms) {
            for (MetricAlarm a : matching.subList(from, to)) {
                page.add(a.tree(alarms.region()));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("CompositeAlarms", List.of());
        out.put("MetricAlarms", page);
        if (to < matching.size()) {
            out.put("NextToken", Integer.toString(to));
        }
        return out;
    }

    private static boolean hasActionPrefix(MetricAlarm a, String prefix) {
        for (List<String> list : List.of(a.alarmActions, a.okActions, a.insufficientDataActions)) {
            for (String arn : list) {
                if (arn.startsWith(prefix)) {
                    return true;
                }
            }
        }
        return false;
    }

    Map<String, Object> describeAlarmsForMetric(JsonNode in) {
        String metricName = Input.required(in, "MetricName", "MetricName");
        String namespace = Input.required(in, "Namespace", "Namespace");
        String statistic = Input.text(in, "Statistic");
        long period = Input.integer(in, "Period", "Period", false);
        String unit = MetricUnits.check(Input.text(in, "Unit"), "Unit");
        JsonNode dimsNode = Input.get(in, "Dimensions");
        List<MetricKey.Dimension> dims = dimsNode.isMissingNode() ? null
                : new MetricKey("x", "x", PutMetricDataInput.dimensions(Input.list(in, "Dimensions", "Dimensions"), "Dimensions")).dimensions();
        List<Object> out = new ArrayList<>();
        synchronized (alarms) {
            for (MetricAlarm a : alarms.list(accountId)) {
                if (a.isMath() || !a.metricName.equals(metricName) || !a.namespace.equals(namespace)
                        || statistic != null && !statistic.equals(a.statistic) || period != Long.MIN_VALUE && period != a.period
                        || unit != null && !unit.equals(a.unit)
                        || dims != null && !dims.equals(new MetricKey("x", "x", a.dimensions).dimensions())) {
                    continue;
                }
                out.add(a.tree(alarms.region()));
            }
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("MetricAlarms", out);
        return result;
    }

    Map<String, Object> deleteAlarms(JsonNode in) {
        List<String> names = names(in);
        alarms.delete(accountId, names);
        return new LinkedHashMap<>();
    }

    Map<String, Object> setAlarmState(JsonNode in) {
        String name = Input.required(in, "AlarmName", "AlarmName");
        String state = Input.required(in, "StateValue", "StateValue");
        if (!STATES.contains(state)) {
            throw CloudWatchException.invalidValue("The value " + state + " for parameter StateValue is not valid. Valid values are OK, ALARM and INSUFFICIENT_DATA.");
        }
        String reason = Input.required(in, "StateReason", "StateReason");
        if (reason.length() > 1023) {
            throw CloudWatchException.invalidValue("The parameter StateReason must be no longer than 1023 characters.");
        }
        String data = Input.text(in, "StateReasonData");
        if (data != null) {
            try {
                JsonNode parsed = JSON.readTree(data);
                if (parsed == null || !parsed.isObject()) {
                    throw new java.io.IOException("not an object");
                }
            } catch (java.io.IOException e) {
                throw CloudWatchException.invalidFormat("The parameter StateReasonData is not valid JSON.");
            }
            if (data.length() > 4000) {
                throw CloudWatchException.invalidValue("The parameter StateReasonData must be no longer than 4000 characters.");
            }
        }
        alarms.setState(accountId, name, state, reason, data);
        return new LinkedHashMap<>();
    }

    Map<String, Object> setActionsEnabled(JsonNode in, boolean enabled) {
        alarms.setActionsEnabled(accountId, names(in), enabled);
        return new LinkedHashMap<>();
    }

    private static List<String> names(JsonNode in) {
        if (Input.get(in, "AlarmNames").isMissingNode()) {
            throw CloudWatchException.missing("AlarmNames");
        }
        List<String> names = texts(Input.list(in, "AlarmNames", "AlarmNames"));
        if (names.size() > 100) {
            throw CloudWatchException.invalidValue("The collection AlarmNames must not have a size greater than 100.");
        }
        return names;
    }

    Map<String, Object> describeAlarmHistory(JsonNode in) {
        String name = Input.text(in, "AlarmName");
        String type = Input.text(in, "HistoryItemType");
        if (type != null && !List.of("ConfigurationUpdate", "StateUpdate", "Action", "AlarmContributorStateUpdate",
                "AlarmContributorAction").contains(type)) {
            throw CloudWatchException.invalidValue("The value " + type + " for parameter HistoryItemType is not valid.");
        }
        List<String> types = texts(Input.list(in, "AlarmTypes", "AlarmTypes"));
        Instant startDate = Input.get(in, "StartDate").isMissingNode() ? null : Input.time(in, "StartDate", "StartDate");
        Instant endDate = Input.get(in, "EndDate").isMissingNode() ? null : Input.time(in, "EndDate", "EndDate");
        String scanBy = Input.text(in, "ScanBy");
        if (scanBy != null && !scanBy.equals("TimestampDescending") && !scanBy.equals("TimestampAscending")) {
            throw CloudWatchException.invalidValue("The value " + scanBy
                    + " for parameter ScanBy is not valid. Valid values are TimestampDescending and TimestampAscending.");
        }
        int max = maxRecords(in, 100);
        List<AlarmHistoryItem> matching = new ArrayList<>();
        if (types.isEmpty() || types.contains("MetricAlarm")) {
            for (AlarmHistoryItem i : alarms.history(accountId)) {
                if (name != null && !name.equals(i.alarmName()) || type != null && !type.equals(i.type())
                        || startDate != null && i.millis() < startDate.toEpochMilli() || endDate != null && i.millis() > endDate.toEpochMilli()) {
                    continue;
                }
                matching.add(i);
            }
        }
        if (!"TimestampAscending".equals(scanBy)) {
            java.util.Collections.reverse(matching);
        }
        int from = offset(Input.text(in, "NextToken"), matching.size());
        int to = Math.min(matching.size(), from + max);
        List<Object> page = new ArrayList<>();
        for (AlarmHistoryItem i : matching.subList(from, to)) {
            page.add(i.tree());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("AlarmHistoryItems", page);
        if (to < matching.size()) {
            out.put("NextToken", Integer.toString(to));
        }
        return out;
    }

    Map<String, Object> tagResource(JsonNode in) {
        String arn = Input.required(in, "ResourceARN", "ResourceARN");
        if (Input.get(in, "Tags").isMissingNode()) {
            throw CloudWatchException.missing("Tags");
        }
        alarms.tag(accountId, arn, AlarmInput.tags(in, "Tags"));
        return new LinkedHashMap<>();
    }

    Map<String, Object> untagResource(JsonNode in) {
        String arn = Input.required(in, "ResourceARN", "ResourceARN");
        if (Input.get(in, "TagKeys").isMissingNode()) {
            throw CloudWatchException.missing("TagKeys");
        }
        alarms.untag(accountId, arn, texts(Input.list(in, "TagKeys", "TagKeys")));
        return new LinkedHashMap<>();
    }

    Map<String, Object> listTagsForResource(JsonNode in) {
        String arn = Input.required(in, "ResourceARN", "ResourceARN");
        List<Object> tags = new ArrayList<>();
        alarms.tags(accountId, arn).entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("Key", e.getKey());
            t.put("Value", e.getValue());
            tags.add(t);
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Tags", tags);
        return out;
    }

    private static int maxRecords(JsonNode in, int fallback) {
        long max = Input.integer(in, "MaxRecords", "MaxRecords", false);
        if (max == Long.MIN_VALUE) {
            return fallback;
        }
        if (max < 1 || max > 100) {
            throw CloudWatchException.invalidValue("The parameter MaxRecords must be between 1 and 100.");
        }
        return (int) max;
    }

    private static int offset(String token, int size) {
        if (token == null) {
            return 0;
        }
        try {
            int n = Integer.parseInt(token);
            if (n < 0 || n > size) {
                throw CloudWatchException.invalidNextToken();
            }
            return n;
        } catch (NumberFormatException e) {
            throw CloudWatchException.invalidNextToken();
        }
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(x -> out.add(x.asText()));
        return out;
    }
}
