package io.hikyaku.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.CallContext;
import io.hikyaku.api.SendOnceKey;
import io.hikyaku.api.SqsService;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fires due schedules: on each {@link #tick} (every 100 ms in the server, by hand in tests) every enabled schedule
 * whose next fire time (plus its flexible-window offset) has come is sent to its queue through
 * {@link SqsService#invoke} in-process; after the tick's sends their {@code Fired} commands are recorded with one
 * fsync. Each send is a send-once keyed by
 * (schedule ARN, the schedule's generation, scheduled time) ({@link SendOnceKey}): the engine stores the message
 * and the key's record in one batch and stores nothing for a repeat, so a crash between the send and the
 * {@code Fired} record, and the send again after the restart, still deliver the fire exactly once. Fires missed
 * while the server was down: only the latest due one is sent. The time comes from the injected clock; the state
 * machine never reads it.
 */
public final class ScheduleFirer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE_URL = "http://hikyaku.internal";
    /** Catch-up after downtime walks at most this many missed fire times to find the latest. */
    private static final int MAX_CATCH_UP = 100_000;

    private final SchedulerStore store;
    private final SqsService sqs;
    private final String region;
    private final Clock clock;
    private final ExecutionRoles roles;
    private final TopicTargets topics;
    private final AtomicLong requestIds = new AtomicLong();
    /** Failed attempts per (schedule ARN, scheduled time): memory only, so a restart retries afresh. */
    private final Map<String, int[]> attempts = new HashMap<>();
    /** Totals since start by AWS/Scheduler metric name ({@code /metrics}); per group they go to {@link #metrics}. */
    private final Map<String, AtomicLong> totals = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile SchedulerMetrics metrics = SchedulerMetrics.NONE;

    public ScheduleFirer(SchedulerStore store, SqsService sqs, String region, Clock clock) {
        this(store, sqs, region, clock, ExecutionRoles.UNCHECKED, TopicTargets.NONE);
    }

    /**
     * @param roles  decides at each send whether the target's execution role may make it
     * @param topics publishes the fires of SNS topic targets
     */
    public ScheduleFirer(SchedulerStore store, SqsService sqs, String region, Clock clock, ExecutionRoles roles, TopicTargets topics) {
        this.store = store;
        this.sqs = sqs;
        this.region = region;
        this.clock = clock;
        this.roles = roles;
        this.topics = topics;
    }

    /** A due fire: which schedule, the scheduled time, the target, whether the schedule completes with it. */
    record Due(String arn, long generation, long scheduled, String targetJson, boolean completes, boolean deleteAfter) { }

    /** Sends every fire due now; returns how many were sent. */
    public synchronized int tick() {
        long now = clock.millis();
        List<Due> due;
        try {
            due = store.read(s -> s.all().stream().map(sc -> due(sc, now)).filter(java.util.Objects::nonNull).toList());
        } catch (SchedulerException e) {
            return 0;
        }
        int sent = 0;
        List<SchedulerCommand> fired = new java.util.ArrayList<>();
        for (Due d : due) {
            String key = d.arn() + "@" + d.scheduled();
            int[] failed = attempts.get(key);
            if (failed != null && now < failed[1] * 1000L + backoffStart(key)) {
                continue;
            }
            count(d, SchedulerMetrics.INVOCATION_ATTEMPTS);
            String error = send(d, d.targetJson(), d.scheduled(), failed == null ? 1 : failed[0] + 1);
            boolean ok = error == null;
            if (!ok) {
                count(d, SchedulerMetrics.TARGET_ERRORS);
                JsonNode retry = read(d.targetJson()).path("RetryPolicy");
                int max = retry.path("MaximumRetryAttempts").asInt(185);
                long maxAge = retry.path("MaximumEventAgeInSeconds").asLong(86400) * 1000;
                int[] a = attempts.computeIfAbsent(key, k -> new int[2]);
                a[0]++;
                a[1] = (int) Math.min(3600, 1L << Math.min(a[0], 12)); // exponential backoff in seconds
                backoffStarts.put(key, now);
                if (a[0] <= max && now - d.scheduled() < maxAge) {
                    continue;
                }
                count(d, SchedulerMetrics.INVOCATIONS_DROPPED);
                deadLetter(d, error);
            }
            attempts.remove(key);
            backoffStarts.remove(key);
            fired.add(new SchedulerCommand.Fired(d.arn().split(":")[4], d.arn(), d.scheduled(), d.completes() && d.deleteAfter()));
            sent += ok ? 1 : 0;
        }
        try {
            store.applyAll(fired); // one fsync for the tick's records; a crash before it: the engine refuses the repeats
        } catch (SchedulerException e) {
            return 0; // the store is fenced: nothing is recorded until a restart
        }
        return sent;
    }

    private final Map<String, Long> backoffStarts = new HashMap<>();

    private long backoffStart(String key) {
        return backoffStarts.getOrDefault(key, 0L);
    }

    /** The fire of {@code sc} due at {@code now}, or null. */
    static Due due(Schedule sc, long now) {
        ScheduleDefinition d = sc.definition;
        if (!d.state().equals("ENABLED")) {
            return null;
        }
        ScheduleExpression e;
        ZoneId zone;
        try {
            e = ScheduleExpression.parse(d.expression());
            zone = ZoneId.of(d.timezone());
        } catch (SchedulerException | java.time.DateTimeException invalid) {
            return null; // validated at create: cannot happen
        }
        long from = e instanceof ScheduleExpression.At ? Long.MIN_VALUE : d.startDate() != null ? d.startDate() : sc.created;
        long after = sc.lastFired >= 0 ? sc.lastFired : Long.MIN_VALUE + 1;
        long t = e.nextAfter(after, from, zone);
        if (t < 0 || (d.endDate() != null && t > d.endDate()) || t + offset(sc.arn, t, d.flexibleWindowMinutes()) > now) {
            return null;
        }
        for (int i = 0; i < MAX_CATCH_UP; i++) { // missed while down: only the latest due fire is sent
            long n = e.nextAfter(t, from, zone);
            if (n < 0 || n > now || (d.endDate() != null && n > d.endDate())) {
                break;
            }
            t = n;
        }
        long next = e.nextAfter(t, from, zone);
        boolean completes = next < 0 || (d.endDate() != null && next > d.endDate());
        return new Due(sc.arn, sc.generation, t, d.targetJson(), completes, d.actionAfterCompletion().equals("DELETE"));
    }

    /** The flexible window's offset: spread over the window from a hash of the ARN and the scheduled time. */
    static long offset(String arn, long scheduled, int windowMinutes) {
        if (windowMinutes <= 0) {
            return 0;
        }
        byte[] h = sha256(arn + "@" + scheduled);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (h[i] & 0xff);
        }
        return Math.floorMod(v, windowMinutes * 60_000L);
    }

    /** Sends one attempt of a fire; null when it was stored, else why not. */
    private String send(Due d, String targetJson, long scheduled, int attempt) {
        JsonNode t = read(targetJson);
        String arn = t.path("Arn").asText();
        String body = t.path("Input").asText("");
        body = body.replace("<aws.scheduler.schedule-arn>", d.arn())
                .replace("<aws.scheduler.scheduled-time>", Instant.ofEpochMilli(scheduled).toString())
                .replace("<aws.scheduler.execution-id>", executionId(d.arn(), scheduled))
                .replace("<aws.scheduler.attempt-number>", Integer.toString(attempt));
        if (body.isEmpty()) {
            body = "{}";
        }
        if (arn.startsWith("arn:aws:sns:")) {
            return publishTo(d.arn(), t.path("RoleArn").asText(null), arn, body);
        }
        return sendTo(d.arn(), t.path("RoleArn").asText(null), arn, body, t.path("SqsParameters").path("MessageGroupId").asText(null),
                new SendOnceKey(d.arn(), d.generation(), scheduled));
    }

    /**
     * One SendMessage, as a send-once under {@code once}, made as the schedule's execution role: a role that may not
     * send there (or use an SSE-KMS queue's key) fails the send like any target error. A FIFO target gets its group
     * id and no deduplication id: as at AWS, the queue's content-based deduplication applies (CreateSchedule refuses
     * a FIFO queue without it).
     */
    private String sendTo(String scheduleArn, String roleArn, String queueArn, String body, String groupId, SendOnceKey once) {
        String denial = roleArn == null ? "The target has no RoleArn" : roles.sendDenial(roleArn, scheduleArn, queueArn);
        if (denial != null) {
            return denial;
        }
        String[] a = queueArn.split(":");
        String account = a[4];
        String name = a[5];
        ObjectNode input = JSON.createObjectNode().put("QueueUrl", BASE_URL + "/" + account + "/" + name).put("MessageBody", body);
        if (name.endsWith(".fifo")) {
            input.put("MessageGroupId", groupId == null ? "default" : groupId);
        }
        CallContext context = new CallContext(account, region, BASE_URL, null, "scheduler-" + requestIds.incrementAndGet())
                .withSendOnce(once).withKeyCaller(roles.keyCaller(roleArn, scheduleArn));
        try {
            sqs.invoke(context, new ApiRequest("SendMessage", input, WireProtocol.JSON, true, "/")).get(10, TimeUnit.SECONDS);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Interrupted";
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause() == null || e.getCause().getMessage() == null ? String.valueOf(e.getCause()) : e.getCause().getMessage();
        } catch (Exception e) {
            return String.valueOf(e.getMessage() == null ? e : e.getMessage());
        }
    }

    /** The dropped fire's note, sent to the dead-letter queue as the execution role; it names the last error. */
    /**
     * One Publish to an SNS topic of this server, as the execution role. Not a send-once: a crash between the
     * publish and the {@code Fired} record publishes that fire again after the restart (at least once).
     */
    private String publishTo(String scheduleArn, String roleArn, String topicArn, String message) {
        String denial = roleArn == null ? "The target has no RoleArn" : roles.publishDenial(roleArn, scheduleArn, topicArn);
        return denial != null ? denial : topics.publish(topicArn.split(":")[4], topicArn, message);
    }

    private void deadLetter(Due d, String error) {
        JsonNode target = read(d.targetJson());
        JsonNode dlq = target.path("DeadLetterConfig").get("Arn");
        if (dlq != null) {
            ObjectNode note = JSON.createObjectNode().put("ScheduleArn", d.arn())
                    .put("ScheduledTime", Instant.ofEpochMilli(d.scheduled()).toString())
                    .put("ErrorMessage", "The target could not be invoked within the retry policy: " + error);
            boolean sent = null == sendTo(d.arn(), target.path("RoleArn").asText(null), dlq.asText(), note.toString(), null, new SendOnceKey(d.arn() + "#dead-letter", d.generation(), d.scheduled()));
            count(d, sent ? SchedulerMetrics.SENT_TO_DEAD_LETTER : SchedulerMetrics.FAILED_TO_BE_SENT_TO_DEAD_LETTER);
        }
    }

    /** SHA-256 hex of (schedule ARN, scheduled time): the execution id ({@code <aws.scheduler.execution-id>}). */
    static String executionId(String arn, long scheduled) {
        return HexFormat.of().formatHex(sha256(arn + "@" + scheduled));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored target is JSON", e);
        }
    }

    /** Where each invocation's outcome is also counted per account and schedule group (CloudWatch's AWS/Scheduler). */
    public void metrics(SchedulerMetrics sink) {
        this.metrics = sink;
    }

    private void count(Due d, String metric) {
        totals.computeIfAbsent(metric, m -> new AtomicLong()).incrementAndGet();
        String[] arn = d.arn().split(":", 6); // ...:<account>:schedule/<group>/<name>
        String[] path = arn[5].split("/");
        try {
            metrics.count(arn[4], path[1], metric);
        } catch (RuntimeException e) {
            // metrics are best-effort: a fire never fails for them
        }
    }

    /** The totals since start, by AWS/Scheduler metric name ({@link SchedulerMetrics#NAMES}; 0 for none yet). */
    public Map<String, Long> counters() {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (String name : SchedulerMetrics.NAMES) {
            AtomicLong v = totals.get(name);
            out.put(name, v == null ? 0 : v.get());
        }
        return out;
    }
}
