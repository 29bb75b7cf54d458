package io.hikyaku.scheduler;

import java.util.Map;
import java.util.TreeMap;

/** A schedule group; {@code default} exists in every account without being created (created time 0). */
final class ScheduleGroup {
    final String arn;
    final String name;
    final long created;
    final String clientToken;
    final Map<String, String> tags = new TreeMap<>();

    ScheduleGroup(String arn, String name, long created, String clientToken) {
        this.arn = arn;
        this.name = name;
        this.created = created;
        this.clientToken = clientToken;
    }
}
