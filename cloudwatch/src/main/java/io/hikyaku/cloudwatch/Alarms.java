package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.servicelog.FileServiceLog;
import io.hikyaku.servicelog.ServiceLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every account's metric alarms, their state and history: evaluated once per minute of the service
 * clock ({@link #evaluateDue}, on the sampler's thread, right after the minute's sample) by
 * {@link AlarmEvaluation}; a state change records a history item and hands the state's actions to the
 * notifier on the actions executor. Durable: every change is one record of a {@link ServiceLog}
 * ({@link AlarmRecord}: the alarms it changed, whole, the names it deleted, the history items it added), appended
 * before the request is answered: {@code <data>/cloudwatch-alarms.log} on a single node, the replicated store in
 * a cluster (where only the ready leader evaluates: {@link #active}). An alarms file of an earlier version
 * ({@code cloudwatch-alarms.json}, the whole set) is migrated into the log once, then renamed {@code .migrated}.
 * Bounded: alarms per account, history items per account. Thread-safe (one lock).
 */
final class Alarms {

    private static final Logger LOG = LoggerFactory.getLogger(Alarms.class);
    static final String FILE_NAME = "cloudwatch-alarms.log";
    /** The whole set as one JSON file: how earlier versions kept alarms (migrated at the first start). */
    static final String JSON_FILE_NAME = "cloudwatch-alarms.json";
    /** The service's name in a store-kept log ({@code hikyaku.svc/cloudwatch-alarms/...}). */
    static final String SERVICE = "cloudwatch-alarms";
    static final int DEFAULT_MAX_PER_ACCOUNT = 5000;
    static final int MAX_HISTORY_PER_ACCOUNT = 2000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter DATA_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final MetricReader reader;
    private final Clock clock;
    private final Path file;
    private ServiceLog log;
    private final int maxPerAccount;
    private final Executor actions;
    /** Alarms by account, then by name (sorted: DescribeAlarms answers in name order). */
    private final Map<String, TreeMap<String, MetricAlarm>> byAccount = new HashMap<>();
    private final Map<String, Deque<AlarmHistoryItem>> history = new HashMap<>();
    private volatile String region = "us-east-1";
    private volatile AlarmNotifier notifier = AlarmNotifier.NONE;
    /** Whether this node evaluates (false on a cluster node that is not the ready leader). */
    private volatile boolean active = true;
    /** What the operation under way changed, written as one record by {@link #save}. */
    private final AlarmRecord pending = new AlarmRecord();
    /** The minute of the last round; starts at the current one, so the first round is when the next minute begins. */
    private long lastEvaluatedMinute;

    /** @param file the alarms log ({@link #FILE_NAME}), or null to keep alarms in memory only */
    Alarms(MetricReader reader, Clock clock, Path file, int maxPerAccount, Executor actions) {
        this.reader = reader;
        this.clock = clock;
        this.file = file;
        this.log = file == null ? ServiceLog.memory() : new FileServiceLog(file, false, LOG::warn);
        this.maxPerAccount = maxPerAccount;
        this.actions = actions;
        this.lastEvaluatedMinute = MetricSampler.minuteOf(clock.millis());
    }

    void region(String region) {
        this.region = region;
    }

    String region() {
        return region;
    }

    void notifier(AlarmNotifier notifier) {
        this.notifier = notifier;
    }

    /** One action to run after the lock is released. */
    private record Action(String accountId, String alarmName, String arn, String subject, String body) {}

    // ---- operations (called by AlarmApi) ----

    synchronized void put(String accountId, String name, JsonNode in) {
        TreeMap<String, MetricAlarm> alarms = byAccount.computeIfAbsent(accountId, a -> new TreeMap<>());
        MetricAlarm existing = alarms.get(name);
        MetricAlarm alarm = new MetricAlarm(accountId, name);
        AlarmInput.read(in, alarm, reader);
        Map<String, String> tags = AlarmInput.tags(in, "Tags");
        long now = clock.millis();
        if (existing == null) {
            if (alarms.size() >= maxPerAccount) {
                throw CloudWatchException.limitExceeded("The maximum of " + maxPerAccount + " alarms per account on this server is reached.");
            }
            alarm.stateUpdatedMillis = now;
            alarm.stateTransitionedMillis = now;
            alarm.tags.putAll(tags);
        } else {
            // An update replaces the configuration and keeps the state (and tags: Tags apply on creation only).
            alarm.state = existing.state;
            alarm.stateReason = existing.stateReason;
            alarm.stateReasonData = existing.stateReasonData;
            alarm.stateUpdatedMillis = existing.stateUpdatedMillis;
            alarm.stateTransitionedMillis = existing.stateTransitionedMillis;
            alarm.tags.putAll(existing.tags);
        }
        alarm.configUpdatedMillis = now;
        alarms.put(name, alarm);
        pending.changed(alarm);
        ObjectNode data = JSON.createObjectNode();
        data.put("version", "1.0");
        data.put("type", existing == null ? "Create" : "Update");
        data.set(existing == null ? "createdAlarm" : "updatedAlarm", JSON.valueToTree(withTextTimes(alarm.tree(region))));
        record(accountId, new AlarmHistoryItem(name, now, "ConfigurationUpdate",
                "Alarm \"" + name + "\" " + (existing == null ? "created" : "updated"), data.toString()));
        save();
    }

    /** A DescribeAlarms tree with its timestamps as text (history data is JSON text). */
    @SuppressWarnings("unchecked")
    private static Object withTextTimes(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            ((Map<String, Object>) map).forEach((k, v) -> out.put(k, withTextTimes(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(Alarms::withTextTimes).toList();
        }
        return value instanceof Instant t ? DATA_TIME.format(t) : value;
    }

    synchronized List<MetricAlarm> list(String accountId) {
        TreeMap<String, MetricAlarm> alarms = byAccount.get(accountId);
        return alarms == null ? List.of() : List.copyOf(alarms.values());
    }

    synchronized MetricAlarm find(String accountId, String name) {
        TreeMap<String, MetricAlarm> alarms = byAccount.get(accountId);
        return alarms == null ? null : alarms.get(name);
    }

    /** Deletes all of {@code names} or, when one does not exist, none. */
    synchronized void delete(String accountId, List<String> names) {
        TreeMap<String, MetricAlarm> alarms = byAccount.getOrDefault(accountId, new TreeMap<>());
        List<String> missing = names.stream().filter(n -> !alarms.containsKey(n)).toList();
        if (!missing.isEmpty()) {
            throw CloudWatchException.resourceNotFound(missing.size() + " alarm" + (missing.size() == 1 ? "" : "s")
                    + " not found: " + String.join(", ", missing));
        }
        long now = clock.millis();
        for (String n : names) {
            alarms.remove(n);
            pending.deleted(accountId, n);
            record(accountId, new AlarmHistoryItem(n, now, "ConfigurationUpdate", "Alarm \"" + n + "\" deleted",
                    "{\"version\":\"1.0\",\"type\":\"Delete\"}"));
        }
        save();
    }

    synchronized void setActionsEnabled(String accountId, List<String> names, boolean enabled) {
        TreeMap<String, MetricAlarm> alarms = byAccount.get(accountId);
        if (alarms == null) {
            return;
        }
        boolean changed = false;
        for (String n : names) {
            MetricAlarm a = alarms.get(n);
            if (a != null && a.actionsEnabled != enabled) {
                a.actionsEnabled = enabled;
                pending.changed(a);
                changed = true;
            }
        }
        if (changed) {
            save();
        }
    }

    /** SetAlarmState: the state for now (the next evaluation decides again), its actions run. */
    void setState(String accountId, String name, String state, String reason, String reasonData) {
        List<Action> run = new ArrayList<>();
        synchronized (this) {
            MetricAlarm a = find(accountId, name);
            if (a == null) {
                throw CloudWatchException.resourceNotFound("Alarm " + name + " not found");
            }
            change(a, state, reason, reasonData, clock.millis(), run);
            save();
        }
        submit(run);
    }

    synchronized void tag(String accountId, String arn, Map<String, String> tags) {
        MetricAlarm a = byArn(accountId, arn);
        Map<String, String> merged = new java.util.LinkedHashMap<>(a.tags);
        merged.putAll(tags);
        if (merged.size() > AlarmInput.MAX_TAGS) {
            throw CloudWatchException.limitExceeded("An alarm has at most " + AlarmInput.MAX_TAGS + " tags.");
        }
        a.tags.putAll(tags);
        pending.changed(a);
        save();
    }

    synchronized void untag(String accountId, String arn, List<String> keys) {
        MetricAlarm a = byArn(accountId, arn);
        keys.forEach(a.tags::remove);
        pending.changed(a);
        save();
    }

    synchronized Map<String, String> tags(String accountId, String arn) {
        return Map.copyOf(byArn(accountId, arn).tags);
    }

    private MetricAlarm byArn(String accountId, String arn) {
        String prefix = "arn:aws:cloudwatch:" + region + ":" + accountId + ":alarm:";
        MetricAlarm a = arn.startsWith(prefix) ? find(accountId, arn.substring(prefix.length())) : null;
        if (a == null) {
            throw CloudWatchException.resourceNotFoundException("The resource " + arn + " does not exist.");
        }
        return a;
    }

    /** The account's history, oldest first. */
    synchronized List<AlarmHistoryItem> history(String accountId) {
        Deque<AlarmHistoryItem> items = history.get(accountId);
        return items == null ? List.of() : List.copyOf(items);
    }

    private void record(String accountId, AlarmHistoryItem item) {
        Deque<AlarmHistoryItem> items = history.computeIfAbsent(accountId, a -> new ArrayDeque<>());
        items.addLast(item);
        while (items.size() > MAX_HISTORY_PER_ACCOUNT) {
            items.removeFirst();
        }
        pending.recorded(accountId, item);
    }

    synchronized int size() {
        return byAccount.values().stream().mapToInt(Map::size).sum();
    }

    // ---- evaluation ----

    /**
     * Evaluates every alarm when the clock has entered a new minute since the last round.
     * @return whether a round ran
     */
    boolean evaluateDue() {
        long minute = MetricSampler.minuteOf(clock.millis());
        List<Action> run = new ArrayList<>();
        synchronized (this) {
            if (!active || minute <= lastEvaluatedMinute) {
                return false;
            }
            lastEvaluatedMinute = minute;
            boolean changed = false;
            for (TreeMap<String, MetricAlarm> alarms : byAccount.values()) {
                for (MetricAlarm a : alarms.values()) {
                    try {
                        changed |= evaluate(a, minute, run);
                    } catch (RuntimeException e) {
                        LOG.warn("CloudWatch alarm {} of account {} could not be evaluated: {}", a.name, a.accountId, e.toString());
                    }
                }
            }
            if (changed) {
                try {
                    save();
                } catch (UncheckedIOException e) {
                    // The state changes still notify: a lost file write must not also silence the alarms.
                    LOG.error("CloudWatch alarm states could not be saved: {}", e.getCause().toString());
                }
            }
        }
        submit(run);
        return true;
    }

    /** @return whether the state changed */
    private boolean evaluate(MetricAlarm a, long minute, List<Action> run) {
        int n = a.rule.evaluationPeriods();
        long p = a.period / 60;
        Double[] values = new Double[n];
        long[] starts = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = (minute - (n - i) * p) * 60;
        }
        if (a.isMath()) {
            MetricDataQueries queries = MetricDataQueries.parse(reader, a.accountId, a.metrics, "Metrics");
            List<MetricDataQueries.Result> results = queries.run(reader, minute - n * p, minute);
            MathSeries series = results.isEmpty() ? null : results.get(0).series();
            for (int i = 0; i < n; i++) {
                values[i] = series == null ? null : series.points().get(starts[i]);
            }
        } else {
            MetricReader.Source source = reader.find(a.accountId, a.namespace, a.metricName, a.dimensions, a.unit);
            for (int i = 0; i < n; i++) {
                long from = starts[i] / 60;
                Aggregate agg = source == null ? null : source.aggregate(from, from + p);
                values[i] = agg == null ? null : agg.statistic(a.statistic);
            }
        }
        AlarmEvaluation.Outcome outcome = AlarmEvaluation.evaluate(a.rule, values, starts, a.state);
        if (outcome.state().equals(a.state)) {
            return false;
        }
        change(a, outcome.state(), outcome.reason(), reasonData(a, values, starts, outcome, minute), clock.millis(), run);
        return true;
    }

    private String reasonData(MetricAlarm a, Double[] values, long[] starts, AlarmEvaluation.Outcome outcome, long minute) {
        ObjectNode d = JSON.createObjectNode();
        d.put("version", "1.0");
        d.put("queryDate", DATA_TIME.format(Instant.ofEpochMilli(clock.millis())));
        d.put("startDate", DATA_TIME.format(Instant.ofEpochSecond(starts[0])));
        if (!a.isMath()) {
            d.put("statistic", a.statistic);
        }
        d.put("period", a.period);
        ArrayNode recent = d.putArray("recentDatapoints");
        for (Double v : values) {
            if (v != null) {
                recent.add(v);
            }
        }
        d.put("threshold", a.rule.threshold());
        ArrayNode evaluated = d.putArray("evaluatedDatapoints");
        for (int i : outcome.evaluated()) {
            evaluated.addObject().put("timestamp", DATA_TIME.format(Instant.ofEpochSecond(starts[i]))).put("value", values[i]);
        }
        return d.toString();
    }

    private void change(MetricAlarm a, String state, String reason, String reasonData, long now, List<Action> run) {
        String old = a.state;
        String oldReason = a.stateReason;
        a.state = state;
        a.stateReason = reason;
        a.stateReasonData = reasonData;
        a.stateUpdatedMillis = now;
        if (!old.equals(state)) {
            a.stateTransitionedMillis = now;
        }
        pending.changed(a);
        ObjectNode data = JSON.createObjectNode();
        data.put("version", "1.0");
        data.putObject("oldState").put("stateValue", old).put("stateReason", oldReason);
        ObjectNode ns = data.putObject("newState").put("stateValue", state).put("stateReason", reason);
        if (reasonData != null) {
            try {
                ns.set("stateReasonData", JSON.readTree(reasonData));
            } catch (IOException e) {
                ns.put("stateReasonData", reasonData);
            }
        }
        record(a.accountId, new AlarmHistoryItem(a.name, now, "StateUpdate", "Alarm updated from " + old + " to " + state, data.toString()));
        if (a.actionsEnabled) {
            for (String arn : a.actionsFor(state)) {
                run.add(new Action(a.accountId, a.name, arn, AlarmMessage.subject(a, state, region), AlarmMessage.body(a, old, now, region)));
            }
        }
    }

    private void submit(List<Action> run) {
        for (Action action : run) {
            try {
                actions.execute(() -> execute(action));
            } catch (RuntimeException rejected) {
                recordAction(action, "Failed to execute action " + action.arn() + ". Received error: \"the action queue is full\"");
            }
        }
    }

    private void execute(Action action) {
        String failure;
        try {
            failure = notifier.publish(action.accountId(), action.arn(), action.subject(), action.body());
        } catch (RuntimeException e) {
            failure = e.toString();
        }
        recordAction(action, failure == null ? "Successfully executed action " + action.arn()
                : "Failed to execute action " + action.arn() + ". Received error: \"" + failure + "\"");
    }

    private synchronized void recordAction(Action action, String summary) {
        ObjectNode data = JSON.createObjectNode();
        data.put("actionState", summary.startsWith("Successfully") ? "Succeeded" : "Failed");
        data.put("notificationResource", action.arn());
        record(action.accountId(), new AlarmHistoryItem(action.alarmName(), clock.millis(), "Action", summary, data.toString()));
        save();
    }

    // ---- the alarms log ----

    /** Appends what the operation changed as one record (nothing when it changed nothing). */
    private void save() {
        if (pending.isEmpty()) {
            return;
        }
        byte[] record = pending.toBytes();
        pending.clear();
        try {
            log.append(record);
        } catch (IOException e) {
            // Failure is explicit: the request that changed an alarm is answered with an error.
            throw new UncheckedIOException("the CloudWatch alarms log " + (file == null ? SERVICE : file) + " cannot be written", e);
        }
    }

    /**
     * Loads the alarms log (migrating an earlier version's JSON file into it first); a missing log is no alarms.
     */
    synchronized void load() throws IOException {
        if (file == null) {
            return;
        }
        List<byte[]> records = log.replay();
        Path json = file.resolveSibling(JSON_FILE_NAME);
        if (Files.exists(json)) {
            if (records.isEmpty()) {
                migrate(json);
                records = List.of(pending.toBytes());
                log.append(records.get(0));
                LOG.info("CloudWatch alarms: {} migrated into {}", json, file);
            }
            pending.clear();
            byAccount.clear();
            history.clear();
            Files.move(json, json.resolveSibling(JSON_FILE_NAME + ".migrated"), StandardCopyOption.REPLACE_EXISTING);
            Snapshots.syncDirectory(json);
        }
        replay(records);
    }

    /**
     * Replaces every alarm with what {@code log} holds, and appends to it from now on: a cluster's new leader
     * reads the replicated log before it serves.
     */
    synchronized void reload(ServiceLog log) throws IOException {
        List<byte[]> records = log.replay();
        if (this.log != log) {
            try {
                this.log.close(); // this node's own file, when it joined a cluster
            } catch (IOException e) {
                LOG.warn("Closing the CloudWatch alarms log failed: {}", e.toString());
            }
        }
        this.log = log;
        byAccount.clear();
        history.clear();
        pending.clear();
        replay(records);
        lastEvaluatedMinute = MetricSampler.minuteOf(clock.millis()); // evaluates from the next minute on
    }

    /** Closes the log (a file's channel); after the last action. */
    synchronized void close() {
        try {
            log.close();
        } catch (IOException e) {
            LOG.warn("Closing the CloudWatch alarms log failed: {}", e.toString());
        }
    }

    /** Whether this node evaluates alarms (a cluster node: only while it is the ready leader). */
    void active(boolean active) {
        this.active = active;
    }

    private void replay(List<byte[]> records) throws IOException {
        for (byte[] r : records) {
            AlarmRecord.apply(JSON.readTree(r), (accountId, alarm) -> {
                byAccount.computeIfAbsent(accountId, x -> new TreeMap<>()).put(alarm.name, alarm);
            }, (accountId, name) -> {
                TreeMap<String, MetricAlarm> alarms = byAccount.get(accountId);
                if (alarms != null) {
                    alarms.remove(name);
                }
            }, (accountId, item) -> {
                Deque<AlarmHistoryItem> items = history.computeIfAbsent(accountId, x -> new ArrayDeque<>());
                items.addLast(item);
                while (items.size() > MAX_HISTORY_PER_ACCOUNT) {
                    items.removeFirst();
                }
            });
        }
        pending.clear();
    }

    /** An earlier version's whole-set file, read into the pending record (alarms and history). */
    private void migrate(Path json) throws IOException {
        JsonNode root = JSON.readTree(Files.readAllBytes(json));
        if (root == null || root.path("format").asInt() != 1) {
            throw new IOException("not a Hikyaku CloudWatch alarms file (or an unknown format): " + json);
        }
        for (JsonNode a : root.path("alarms")) {
            pending.changed(MetricAlarm.fromJson(a));
        }
        root.path("history").fields().forEachRemaining(e ->
                e.getValue().forEach(i -> pending.recorded(e.getKey(), AlarmHistoryItem.fromJson(i))));
    }

    /** Runs the given task inline (unit tests: actions happen before evaluateDue returns). */
    static final Executor INLINE = Runnable::run;

    /** For tests: visits every alarm under the lock. */
    synchronized void forEach(Consumer<MetricAlarm> visit) {
        byAccount.values().forEach(m -> m.values().forEach(visit));
    }
}
