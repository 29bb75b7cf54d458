package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * What one alarms operation changed, as one record of the alarms' service log:
 * {@code {"alarms":[<alarm>...], "deleted":[{"account","name"}...], "history":[{"account","item"}...]}}. The
 * changed alarms are written whole, as they are when the record is made (so a record replaces, never patches);
 * replay applies the alarms, then the deletions, then the history items, in record order.
 */
final class AlarmRecord {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Changed alarms by account and name (the last version of each is written). */
    private final Map<List<String>, MetricAlarm> changed = new LinkedHashMap<>();
    private final List<String[]> deleted = new ArrayList<>();
    private final List<Map.Entry<String, AlarmHistoryItem>> recorded = new ArrayList<>();

    void changed(MetricAlarm alarm) {
        changed.put(List.of(alarm.accountId, alarm.name), alarm);
    }

    void deleted(String accountId, String name) {
        changed.remove(List.of(accountId, name));
        deleted.add(new String[] {accountId, name});
    }

    void recorded(String accountId, AlarmHistoryItem item) {
        recorded.add(Map.entry(accountId, item));
    }

    boolean isEmpty() {
        return changed.isEmpty() && deleted.isEmpty() && recorded.isEmpty();
    }

    void clear() {
        changed.clear();
        deleted.clear();
        recorded.clear();
    }

    byte[] toBytes() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode alarms = root.putArray("alarms");
        changed.values().forEach(a -> alarms.add(a.toJson()));
        ArrayNode gone = root.putArray("deleted");
        deleted.forEach(d -> gone.addObject().put("account", d[0]).put("name", d[1]));
        ArrayNode history = root.putArray("history");
        recorded.forEach(e -> history.addObject().put("account", e.getKey()).set("item", e.getValue().toJson()));
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Replays one record through the three callbacks (alarms, deletions, history items). */
    static void apply(JsonNode record, BiConsumer<String, MetricAlarm> alarm, BiConsumer<String, String> delete,
                      BiConsumer<String, AlarmHistoryItem> history) {
        for (JsonNode a : record.path("alarms")) {
            MetricAlarm m = MetricAlarm.fromJson(a);
            alarm.accept(m.accountId, m);
        }
        for (JsonNode d : record.path("deleted")) {
            delete.accept(d.get("account").asText(), d.get("name").asText());
        }
        for (JsonNode h : record.path("history")) {
            history.accept(h.get("account").asText(), AlarmHistoryItem.fromJson(h.get("item")));
        }
    }
}
