package io.hikyaku.scheduler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every schedule and schedule group of the installation. {@link #apply} is deterministic (no clock, no randomness:
 * the time travels in the command) and refuses with a {@link SchedulerException} before changing anything, or
 * applies the command whole; {@link #digest} hashes a canonical form. Not thread-safe: one writer owns it.
 */
public final class SchedulerState {

    public static final String DEFAULT_GROUP = "default";
    /** Hikyaku's bounds (AWS allows 10,000,000 schedules per Region; the in-memory index holds this round's). */
    public static final int MAX_SCHEDULES_PER_ACCOUNT = 100_000;
    public static final int MAX_GROUPS_PER_ACCOUNT = 500;
    public static final int MAX_TAGS = 200;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String region;
    private final TreeMap<String, ScheduleGroup> groups = new TreeMap<>(); // "account/group"
    private final TreeMap<String, Schedule> schedules = new TreeMap<>(); // "account/group/name"
    private final Map<String, int[]> counts = new TreeMap<>(); // account -> {schedules, groups}
    private long creates; // schedules ever created: each one's generation

    public SchedulerState(String region) {
        this.region = region;
    }

    public String scheduleArn(String account, String group, String name) {
        return "arn:aws:scheduler:" + region + ":" + account + ":schedule/" + group + "/" + name;
    }

    public String groupArn(String account, String group) {
        return "arn:aws:scheduler:" + region + ":" + account + ":schedule-group/" + group;
    }

    /** @return the ARN created, found or changed, or null */
    public String apply(SchedulerCommand command) throws SchedulerException {
        if (command instanceof SchedulerCommand.CreateGroup c) {
            return createGroup(c);
        }
        if (command instanceof SchedulerCommand.DeleteGroup c) {
            return deleteGroup(c);
        }
        if (command instanceof SchedulerCommand.PutSchedule c) {
            return putSchedule(c);
        }
        if (command instanceof SchedulerCommand.DeleteSchedule c) {
            Schedule s = schedule(c.account(), c.group(), c.name());
            remove(s);
            return s.arn;
        }
        if (command instanceof SchedulerCommand.Tag c) {
            ScheduleGroup g = taggable(c.account(), c.resourceArn());
            if (!groups.containsKey(c.account() + "/" + g.name)) {
                groups.put(c.account() + "/" + g.name, g); // the implicit default group, once tagged, is kept
            }
            Map<String, String> after = new TreeMap<>(g.tags);
            after.putAll(c.tags());
            if (after.size() > MAX_TAGS) {
                throw new SchedulerException("ServiceQuotaExceededException", 402,
                        "A schedule group can have at most " + MAX_TAGS + " tags.");
            }
            g.tags.putAll(c.tags());
            return g.arn;
        }
        if (command instanceof SchedulerCommand.Untag c) {
            ScheduleGroup g = taggable(c.account(), c.resourceArn());
            c.keys().forEach(g.tags::remove);
            return g.arn;
        }
        if (command instanceof SchedulerCommand.Fired c) {
            Schedule s = byArn(c.scheduleArn());
            if (s == null) {
                return null; // deleted meanwhile: the fire stays recorded nowhere, nothing else to do
            }
            s.lastFired = Math.max(s.lastFired, c.scheduledMillis());
            if (c.delete()) {
                remove(s);
            }
            return s.arn;
        }
        throw new IllegalArgumentException("unknown Scheduler command " + command);
    }

    private String createGroup(SchedulerCommand.CreateGroup c) throws SchedulerException {
        String key = c.account() + "/" + c.name();
        ScheduleGroup existing = groups.get(key);
        if (existing != null || c.name().equals(DEFAULT_GROUP)) {
            if (existing != null && c.clientToken() != null && c.clientToken().equals(existing.clientToken)) {
                return existing.arn; // the SDK's retry of the same create
            }
            throw SchedulerException.conflict("Schedule group " + c.name() + " already exists.");
        }
        int[] n = counts.computeIfAbsent(c.account(), a -> new int[2]);
        if (n[1] >= MAX_GROUPS_PER_ACCOUNT) {
            throw new SchedulerException("ServiceQuotaExceededException", 402,
                    "The number of schedule groups exceeds the quota of " + MAX_GROUPS_PER_ACCOUNT + ".");
        }
        if (c.tags().size() > MAX_TAGS) {
            throw SchedulerException.validation("A schedule group can have at most " + MAX_TAGS + " tags.");
        }
        ScheduleGroup g = new ScheduleGroup(groupArn(c.account(), c.name()), c.name(), c.atMillis(), c.clientToken());
        g.tags.putAll(c.tags());
        groups.put(key, g);
        n[1]++;
        return g.arn;
    }

    private String deleteGroup(SchedulerCommand.DeleteGroup c) throws SchedulerException {
        if (c.name().equals(DEFAULT_GROUP)) {
            throw SchedulerException.validation("The default schedule group cannot be deleted.");
        }
        ScheduleGroup g = groups.remove(c.account() + "/" + c.name());
        if (g == null) {
            throw SchedulerException.notFound("Schedule group " + c.name() + " does not exist.");
        }
        counts.get(c.account())[1]--;
        String prefix = c.account() + "/" + c.name() + "/";
        for (Schedule s : new ArrayList<>(schedules.subMap(prefix, prefix + Character.MAX_VALUE).values())) {
            remove(s); // deleting a group deletes its schedules
        }
        return g.arn;
    }

    private String putSchedule(SchedulerCommand.PutSchedule c) throws SchedulerException {
        ScheduleDefinition d = c.definition();
        group(c.account(), d.group());
        String key = c.account() + "/" + d.group() + "/" + d.name();
        Schedule existing = schedules.get(key);
        if (c.create()) {
            if (existing != null) {
                if (d.clientToken() != null && d.clientToken().equals(existing.definition.clientToken())) {
                    return existing.arn; // idempotent retry
                }
                throw SchedulerException.conflict("Schedule " + d.name() + " already exists.");
            }
            int[] n = counts.computeIfAbsent(c.account(), a -> new int[2]);
            if (n[0] >= MAX_SCHEDULES_PER_ACCOUNT) {
                throw new SchedulerException("ServiceQuotaExceededException", 402,
                        "The number of schedules exceeds the quota of " + MAX_SCHEDULES_PER_ACCOUNT + ".");
            }
            Schedule s = new Schedule(scheduleArn(c.account(), d.group(), d.name()), c.account(), d, c.atMillis(), ++creates);
            schedules.put(key, s);
            n[0]++;
            return s.arn;
        }
        if (existing == null) {
            throw SchedulerException.notFound("Schedule " + d.name() + " does not exist.");
        }
        existing.definition = d;
        existing.modified = c.atMillis();
        return existing.arn;
    }

    private void remove(Schedule s) {
        schedules.remove(s.account + "/" + s.definition.group() + "/" + s.definition.name());
        counts.get(s.account)[0]--;
    }

    Schedule schedule(String account, String group, String name) throws SchedulerException {
        Schedule s = schedules.get(account + "/" + group + "/" + name);
        if (s == null) {
            group(account, group);
            throw SchedulerException.notFound("Schedule " + name + " does not exist.");
        }
        return s;
    }

    Schedule byArn(String arn) {
        String[] p = arn.split(":", 6);
        if (p.length < 6 || !p[5].startsWith("schedule/")) {
            return null;
        }
        return schedules.get(p[4] + "/" + p[5].substring("schedule/".length()));
    }

    /** The group, the implicit {@code default} one included. */
    ScheduleGroup group(String account, String name) throws SchedulerException {
        ScheduleGroup g = groups.get(account + "/" + name);
        if (g != null) {
            return g;
        }
        if (name.equals(DEFAULT_GROUP)) {
            return new ScheduleGroup(groupArn(account, DEFAULT_GROUP), DEFAULT_GROUP, 0, null); // implicit: reads never write
        }
        throw SchedulerException.notFound("Schedule group " + name + " does not exist.");
    }

    private ScheduleGroup taggable(String account, String arn) throws SchedulerException {
        String prefix = "arn:aws:scheduler:" + region + ":" + account + ":schedule-group/";
        if (!arn.startsWith(prefix)) {
            throw SchedulerException.notFound("Resource " + arn + " does not exist.");
        }
        return group(account, arn.substring(prefix.length()));
    }

    List<ScheduleGroup> groups(String account) {
        List<ScheduleGroup> out = new ArrayList<>();
        if (!groups.containsKey(account + "/" + DEFAULT_GROUP)) {
            out.add(new ScheduleGroup(groupArn(account, DEFAULT_GROUP), DEFAULT_GROUP, 0, null));
        }
        for (Map.Entry<String, ScheduleGroup> e : groups.entrySet()) {
            if (e.getKey().startsWith(account + "/")) {
                out.add(e.getValue());
            }
        }
        return out;
    }

    List<Schedule> schedules(String account) {
        List<Schedule> out = new ArrayList<>();
        for (Map.Entry<String, Schedule> e : schedules.tailMap(account + "/").entrySet()) {
            if (!e.getKey().startsWith(account + "/")) {
                break;
            }
            out.add(e.getValue());
        }
        return out;
    }

    /** Schedules of every account. */
    int size() {
        return schedules.size();
    }

        List<Schedule> all() {
        return new ArrayList<>(schedules.values());
    }

    Map<String, String> tags(String account, String arn) throws SchedulerException {
        return new TreeMap<>(taggable(account, arn).tags);
    }

    /** SHA-256 over a canonical form (sorted maps). */
    public String digest() {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode gs = root.putObject("groups");
        groups.forEach((k, g) -> {
            ObjectNode n = gs.putObject(k).put("created", g.created).put("token", g.clientToken);
            ObjectNode t = n.putObject("tags");
            g.tags.forEach(t::put);
        });
        ObjectNode ss = root.putObject("schedules");
        schedules.forEach((k, s) -> ss.putObject(k).put("created", s.created).put("modified", s.modified)
                .put("lastFired", s.lastFired).put("generation", s.generation).set("definition", JSON.valueToTree(s.definition)));
        root.put("creates", creates);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(root.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
