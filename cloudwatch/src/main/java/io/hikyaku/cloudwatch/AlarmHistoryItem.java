package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** One DescribeAlarmHistory item: ConfigurationUpdate, StateUpdate or Action. */
record AlarmHistoryItem(String alarmName, long millis, String type, String summary, String data) {

    Map<String, Object> tree() {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("AlarmName", alarmName);
        t.put("AlarmType", "MetricAlarm");
        t.put("Timestamp", Instant.ofEpochMilli(millis));
        t.put("HistoryItemType", type);
        t.put("HistorySummary", summary);
        t.put("HistoryData", data);
        return t;
    }

    ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("alarm", alarmName).put("at", millis).put("type", type).put("summary", summary).put("data", data);
        return o;
    }

    static AlarmHistoryItem fromJson(JsonNode o) {
        return new AlarmHistoryItem(o.get("alarm").asText(), o.get("at").asLong(), o.get("type").asText(), o.get("summary").asText(),
                o.get("data").asText());
    }
}
