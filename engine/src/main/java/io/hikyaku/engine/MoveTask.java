package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A message move task (redrive out of a dead-letter queue); persisted in HOUSEKEEPING. */
final class MoveTask {

    static final String RUNNING = "RUNNING";
    static final String COMPLETED = "COMPLETED";
    static final String CANCELLING = "CANCELLING";
    static final String CANCELLED = "CANCELLED";
    static final String FAILED = "FAILED";
    /** Rate used when the caller gives none. */
    static final int DEFAULT_RATE = 500;

    private static final int VERSION = 1;

    final String taskId;
    final String sourceArn;
    final String destinationArn;
    final Integer rate;
    final long startedAt;
    final long toMove;
    /** Order of creation (for newest-first listing when timestamps tie). */
    final long ordinal;
    String status;
    long moved;
    String failureReason;

    MoveTask(String taskId, String sourceArn, String destinationArn, Integer rate, long startedAt, long toMove,
             long ordinal, String status, long moved, String failureReason) {
        this.taskId = taskId;
        this.sourceArn = sourceArn;
        this.destinationArn = destinationArn;
        this.rate = rate;
        this.startedAt = startedAt;
        this.toMove = toMove;
        this.ordinal = ordinal;
        this.status = status;
        this.moved = moved;
        this.failureReason = failureReason;
    }

    boolean active() {
        return status.equals(RUNNING) || status.equals(CANCELLING);
    }

    int effectiveRate() {
        return rate == null ? DEFAULT_RATE : rate;
    }

    /** How many messages the rate allows in total by {@code now}. */
    long allowedBy(long now) {
        return Math.max(0, (now - startedAt)) * effectiveRate() / 1000;
    }

    /** Tick granularity: moves are batched per 100 ms rather than one tick per message. */
    static final long TICK_MS = 100;

    /** When the next message may move, rounded up to the task's 100 ms tick grid. */
    long nextMoveAt() {
        long n = moved + 1;
        long exact = (n * 1000 + effectiveRate() - 1) / effectiveRate();
        return startedAt + (exact + TICK_MS - 1) / TICK_MS * TICK_MS;
    }

    String handle() {
        String json = "{\"taskId\":" + PolicyDocument.quote(taskId) + ",\"sourceArn\":" + PolicyDocument.quote(sourceArn) + "}";
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** A string in JSON, with its escapes of '"' and '\\' (all a handle we minted can hold). */
    private static final String JSON_STRING = "\"((?:[^\"\\\\]|\\\\.)*)\"";
    /**
     * A handle's JSON: exactly one taskId and one sourceArn, in either order, nothing else. A key
     * given twice is refused rather than read one way here and another way elsewhere.
     */
    private static final java.util.regex.Pattern HANDLE_JSON = java.util.regex.Pattern.compile(
            "\\s*\\{\\s*\"(taskId|sourceArn)\"\\s*:\\s*" + JSON_STRING
                    + "\\s*,\\s*\"(taskId|sourceArn)\"\\s*:\\s*" + JSON_STRING + "\\s*}\\s*");

    /**
     * [taskId, sourceArn] from a handle, or null when it does not decode: the one parser of task
     * handles (authorization and routing read the source through {@link QueueEngine#sourceArnOfTaskHandle}).
     */
    static String[] parseHandle(String handle) {
        if (handle == null) {
            return null;
        }
        String json;
        try {
            json = new String(Base64.getDecoder().decode(handle.trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        var m = HANDLE_JSON.matcher(json);
        if (!m.matches() || m.group(1).equals(m.group(3))) {
            return null; // not our shape, or one key twice
        }
        String first = unescape(m.group(2));
        String second = unescape(m.group(4));
        return m.group(1).equals("taskId") ? new String[] {first, second} : new String[] {second, first};
    }

    private static String unescape(String jsonString) {
        return jsonString.replace("\\\"", "\"").replace("\\\\", "\\");
    }

    /** The account of a queue ARN ({@code arn:aws:sqs:region:account:name}), or "" when it is not one. */
    static String accountOf(String arn) {
        String[] parts = arn == null ? new String[0] : arn.split(":", -1);
        return parts.length == 6 ? parts[4] : "";
    }

    /**
     * The account of the source queue a task handle names, or null when the handle does not decode
     * (several engine shards: the one that owns it answers CancelMessageMoveTask).
     */
    static String accountOfHandle(String handle) {
        String[] parts = parseHandle(handle);
        return parts == null ? null : accountOf(parts[1]);
    }

    /** The source queue ARN a task handle names, or null when it does not decode. */
    static String sourceArnOfHandle(String handle) {
        String[] parts = parseHandle(handle);
        return parts == null ? null : parts[1];
    }

    MoveTaskInfo info() {
        return new MoveTaskInfo(status.equals(RUNNING) ? handle() : null, status, sourceArn, destinationArn, rate,
                moved, toMove, failureReason, startedAt);
    }

    byte[] encode() {
        return Enc.version(VERSION).str(sourceArn).str(destinationArn).nullableInt(rate).i64(startedAt).i64(toMove)
                .i64(ordinal).str(status).i64(moved).str(failureReason).done();
    }

    static MoveTask decode(String taskId, byte[] value) {
        Dec d = Dec.of(value, VERSION, "move task");
        return new MoveTask(taskId, d.str(), d.str(), d.nullableInt(), d.i64(), d.i64(), d.i64(), d.str(), d.i64(),
                d.str());
    }
}
