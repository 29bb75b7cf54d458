package io.hikyaku.scheduler;

import io.hikyaku.protocol.HttpRequestData;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Which requests are the Scheduler's, and the IAM action and resource they ask for. By shape: the paths
 * {@code /schedules}, {@code /schedules/<name>}, {@code /schedule-groups}, {@code /schedule-groups/<name>} and
 * {@code /tags/<scheduler ARN>}. They cannot be queue URLs ({@code /<12-digit account>/<queue>}), Lambda paths
 * ({@code /2015-03-31/...}, {@code /2017-03-31/tags/...}) or the console ({@code /console}).
 */
public final class SchedulerRequests {

    private SchedulerRequests() {
    }

    public static boolean accepts(HttpRequestData raw) {
        String path = raw.path();
        if (path.equals("/schedules") || path.equals("/schedule-groups")) {
            return true;
        }
        if (path.startsWith("/schedules/") || path.startsWith("/schedule-groups/")) {
            return true;
        }
        return path.startsWith("/tags/") && URLDecoder.decode(path.substring(6), StandardCharsets.UTF_8)
                .startsWith("arn:aws:scheduler:");
    }

    /**
     * {@code scheduler:<Operation>} on the schedule's or group's ARN (the tagged ARN for tag calls, {@code *} for
     * the List operations), or {@code {null, null}} for a request no operation describes (refused).
     */
    public static String[] authorizationTarget(HttpRequestData raw, String region, String account) {
        String op = SchedulerApi.operation(raw.method(), raw.path());
        if (op == null) {
            return new String[] {null, null};
        }
        String last = SchedulerApi.lastSegment(raw.path());
        String resource;
        if (op.startsWith("List") && !op.equals("ListTagsForResource")) {
            resource = "*";
        } else if (op.endsWith("ScheduleGroup")) {
            resource = "arn:aws:scheduler:" + region + ":" + account + ":schedule-group/" + last;
        } else if (op.endsWith("Schedule")) {
            String group = null;
            if (op.equals("CreateSchedule") || op.equals("UpdateSchedule")) {
                try {
                    group = new com.fasterxml.jackson.databind.ObjectMapper().readTree(raw.body()).path("GroupName").asText(null);
                } catch (java.io.IOException | RuntimeException malformed) {
                    group = null; // the API refuses the body itself
                }
            } else {
                var groups = SchedulerApi.query(raw.rawQuery()).get("groupName");
                group = groups == null ? null : groups.get(0);
            }
            resource = "arn:aws:scheduler:" + region + ":" + account + ":schedule/"
                    + (group == null ? SchedulerState.DEFAULT_GROUP : group) + "/" + last;
        } else {
            resource = last; // tags: the named ARN
        }
        return new String[] {"scheduler:" + op, resource};
    }

    /** The execution role a CreateSchedule/UpdateSchedule body names ({@code Target.RoleArn}), or null. */
    public static String targetRoleArn(HttpRequestData raw) {
        return targetField(raw, "RoleArn");
    }

    private static String targetField(HttpRequestData raw, String field) {
        String op = SchedulerApi.operation(raw.method(), raw.path());
        if (!"CreateSchedule".equals(op) && !"UpdateSchedule".equals(op)) {
            return null;
        }
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(raw.body()).path("Target").path(field).asText(null);
        } catch (java.io.IOException | RuntimeException malformed) {
            return null; // the API refuses the body itself
        }
    }

    public static io.hikyaku.protocol.HttpResponseData accessDenied(String message) {
        return SchedulerApi.error(new SchedulerException("AccessDeniedException", 403, message));
    }
}
