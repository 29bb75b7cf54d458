package io.hikyaku.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * EventBridge Scheduler's REST-JSON protocol over {@link SchedulerStore}: routes method and path to one of the 12
 * operations, validates, stamps the time (the only clock read), applies and answers JSON; errors carry
 * {@code x-amzn-ErrorType} and {@code {"Message": ...}}. The caller has authenticated and authorized the request.
 */
public final class SchedulerApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern NAME = Pattern.compile("[0-9a-zA-Z-_.]{1,64}");
    static final Pattern TOKEN = Pattern.compile("[a-zA-Z0-9-_]{1,64}");
    static final Pattern QUEUE_ARN = Pattern.compile("arn:aws:sqs:[a-z0-9-]+:(\\d{12}):([A-Za-z0-9_-]{1,80}(\\.fifo)?)");
    /** DeadLetterConfig.Arn as AWS's model writes it: no {@code .fifo} name fits. */
    static final Pattern DLQ_ARN = Pattern.compile("^arn:aws(-[a-z]+)?:sqs:[a-z0-9\\-]+:\\d{12}:[a-zA-Z0-9\\-_]+$");
    /** An SNS topic of this server (standard topics: a FIFO topic target is not served). */
    static final Pattern TOPIC_ARN = Pattern.compile("arn:aws:sns:[a-z0-9-]+:(\\d{12}):[A-Za-z0-9_-]{1,256}");
    static final Pattern ROLE_ARN = Pattern.compile("arn:aws:iam::(\\d{12}):role/[\\w+=,.@/-]{1,512}");

    private final SchedulerStore store;
    private final Clock clock;
    private final TargetQueues targets;

    public SchedulerApi(SchedulerStore store, Clock clock) {
        this(store, clock, TargetQueues.UNKNOWN);
    }

    public SchedulerApi(SchedulerStore store, Clock clock, TargetQueues targets) {
        this.store = store;
        this.clock = clock;
        this.targets = targets;
    }

    public HttpResponseData handle(HttpRequestData request, String account) {
        try {
            return new HttpResponseData(200, Map.of("Content-Type", "application/json"),
                    JSON.writeValueAsBytes(dispatch(request, account)));
        } catch (SchedulerException e) {
            return error(e);
        } catch (java.io.IOException e) {
            return error(SchedulerException.validation("The request body is not valid JSON."));
        }
    }

    public static HttpResponseData error(SchedulerException e) {
        ObjectNode body = JSON.createObjectNode().put("Message", e.getMessage());
        return new HttpResponseData(e.status(), Map.of("Content-Type", "application/json", "x-amzn-ErrorType", e.type()),
                body.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The name in {@code /schedules/<name>} or {@code /schedule-groups/<name>}, or the ARN of {@code /tags/<arn>}. */
    static String lastSegment(String path) {
        if (path.startsWith("/tags/")) {
            return URLDecoder.decode(path.substring(6), StandardCharsets.UTF_8);
        }
        String[] p = path.split("/", -1);
        return p.length == 3 ? URLDecoder.decode(p[2], StandardCharsets.UTF_8) : null;
    }

    /** The operation a method and path name, or null (then the request is refused). */
    public static String operation(String method, String path) {
        if (path.startsWith("/tags/") && path.length() > 6) { // the ARN has slashes, encoded or not
            return switch (method) {
                case "POST" -> "TagResource";
                case "GET" -> "ListTagsForResource";
                case "DELETE" -> "UntagResource";
                default -> null;
            };
        }
        String[] p = path.split("/", -1);
        if (p.length == 2 && p[1].equals("schedules")) {
            return method.equals("GET") ? "ListSchedules" : null;
        }
        if (p.length == 2 && p[1].equals("schedule-groups")) {
            return method.equals("GET") ? "ListScheduleGroups" : null;
        }
        if (p.length == 3 && !p[2].isEmpty()) {
            switch (p[1]) {
                case "schedules" -> {
                    return switch (method) {
                        case "POST" -> "CreateSchedule";
                        case "GET" -> "GetSchedule";
                        case "PUT" -> "UpdateSchedule";
                        case "DELETE" -> "DeleteSchedule";
                        default -> null;
                    };
                }
                case "schedule-groups" -> {
                    return switch (method) {
                        case "POST" -> "CreateScheduleGroup";
                        case "GET" -> "GetScheduleGroup";
                        case "DELETE" -> "DeleteScheduleGroup";
                        default -> null;
                    };
                }
                default -> {
                    return null;
                }
            }
        }
        return null;
    }

    private Object dispatch(HttpRequestData r, String account) throws SchedulerException, java.io.IOException {
        String op = operation(r.method(), r.path());
        if (op == null) {
            throw new SchedulerException("UnknownOperationException", 404, "Unknown operation " + r.method() + " " + r.path());
        }
        String last = lastSegment(r.path());
        Map<String, List<String>> q = query(r.rawQuery());
        JsonNode body = r.body() == null || r.body().length == 0 ? JSON.createObjectNode() : JSON.readTree(r.body());
        if (body == null || !body.isObject()) {
            body = JSON.createObjectNode();
        }
        long now = clock.millis();
        switch (op) {
            case "CreateSchedule", "UpdateSchedule" -> {
                ScheduleDefinition d = definition(last, body, account);
                checkFifoDeduplication(d);
                String arn = store.apply(new SchedulerCommand.PutSchedule(account, null, op.equals("CreateSchedule"), d, now));
                return JSON.createObjectNode().put("ScheduleArn", arn);
            }
            case "GetSchedule" -> {
                String group = group(first(q, "groupName"));
                name(last);
                return store.read(s -> view(s.schedule(account, group, last)));
            }
            case "DeleteSchedule" -> {
                String group = group(first(q, "groupName"));
                name(last);
                store.apply(new SchedulerCommand.DeleteSchedule(account, group, last));
                return JSON.createObjectNode();
            }
            case "ListSchedules" -> {
                String group = first(q, "ScheduleGroup");
                String prefix = first(q, "NamePrefix");
                String state = first(q, "State");
                if (state != null && !state.equals("ENABLED") && !state.equals("DISABLED")) {
                    throw SchedulerException.validation("1 validation error detected: Value '" + state
                            + "' at 'state' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, DISABLED]");
                }
                int max = maxResults(first(q, "MaxResults"));
                List<ObjectNode> rows = store.read(s -> {
                    List<ObjectNode> out = new ArrayList<>();
                    for (Schedule sc : s.schedules(account)) {
                        ScheduleDefinition d = sc.definition;
                        if ((group == null || group.equals(d.group())) && (prefix == null || d.name().startsWith(prefix))
                                && (state == null || state.equals(d.state()))) {
                            ObjectNode n = JSON.createObjectNode().put("Arn", sc.arn).put("Name", d.name())
                                    .put("GroupName", d.group()).put("State", d.state())
                                    .put("CreationDate", sc.created / 1000.0).put("LastModificationDate", sc.modified / 1000.0);
                            n.putObject("Target").put("Arn", targetArn(d));
                            out.add(n);
                        }
                    }
                    return out;
                });
                return page(rows, "Schedules", max, first(q, "NextToken"));
            }
            case "CreateScheduleGroup" -> {
                name(last);
                String token = token(body.path("ClientToken").asText(null));
                String arn = store.apply(new SchedulerCommand.CreateGroup(account, null, last, tags(body.get("Tags")), token, now));
                return JSON.createObjectNode().put("ScheduleGroupArn", arn);
            }
            case "GetScheduleGroup" -> {
                name(last);
                return store.read(s -> groupView(s.group(account, last)));
            }
            case "DeleteScheduleGroup" -> {
                name(last);
                store.apply(new SchedulerCommand.DeleteGroup(account, last));
                return JSON.createObjectNode();
            }
            case "ListScheduleGroups" -> {
                String prefix = first(q, "NamePrefix");
                int max = maxResults(first(q, "MaxResults"));
                List<ObjectNode> rows = store.read(s -> {
                    List<ObjectNode> out = new ArrayList<>();
                    for (ScheduleGroup g : s.groups(account)) {
                        if (prefix == null || g.name.startsWith(prefix)) {
                            out.add(groupView(g));
                        }
                    }
                    return out;
                });
                return page(rows, "ScheduleGroups", max, first(q, "NextToken"));
            }
            case "TagResource" -> {
                store.apply(new SchedulerCommand.Tag(account, last, tags(body.get("Tags"))));
                return JSON.createObjectNode();
            }
            case "UntagResource" -> {
                List<String> keys = q.getOrDefault("TagKeys", List.of());
                if (keys.isEmpty()) {
                    throw SchedulerException.validation("1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null");
                }
                store.apply(new SchedulerCommand.Untag(account, last, keys));
                return JSON.createObjectNode();
            }
            case "ListTagsForResource" -> {
                Map<String, String> tags = store.read(s -> s.tags(account, last));
                ObjectNode out = JSON.createObjectNode();
                ArrayNode a = out.putArray("Tags");
                tags.forEach((k, v) -> a.addObject().put("Key", k).put("Value", v));
                return out;
            }
            default -> throw new IllegalStateException(op);
        }
    }

    private static ObjectNode view(Schedule sc) throws SchedulerException {
        ScheduleDefinition d = sc.definition;
        ObjectNode n = JSON.createObjectNode().put("Arn", sc.arn).put("Name", d.name()).put("GroupName", d.group())
                .put("ScheduleExpression", d.expression()).put("ScheduleExpressionTimezone", d.timezone())
                .put("State", d.state()).put("ActionAfterCompletion", d.actionAfterCompletion())
                .put("CreationDate", sc.created / 1000.0).put("LastModificationDate", sc.modified / 1000.0);
        if (d.description() != null) {
            n.put("Description", d.description());
        }
        if (d.startDate() != null) {
            n.put("StartDate", d.startDate() / 1000.0);
        }
        if (d.endDate() != null) {
            n.put("EndDate", d.endDate() / 1000.0);
        }
        if (d.kmsKeyArn() != null) {
            n.put("KmsKeyArn", d.kmsKeyArn());
        }
        ObjectNode w = n.putObject("FlexibleTimeWindow").put("Mode", d.flexibleWindowMinutes() == 0 ? "OFF" : "FLEXIBLE");
        if (d.flexibleWindowMinutes() > 0) {
            w.put("MaximumWindowInMinutes", d.flexibleWindowMinutes());
        }
        try {
            n.set("Target", JSON.readTree(d.targetJson()));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return n;
    }

    static String targetArn(ScheduleDefinition d) {
        try {
            return JSON.readTree(d.targetJson()).path("Arn").asText();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored target is JSON", e);
        }
    }

    private static ObjectNode groupView(ScheduleGroup g) {
        return JSON.createObjectNode().put("Arn", g.arn).put("Name", g.name).put("State", "ACTIVE")
                .put("CreationDate", g.created / 1000.0).put("LastModificationDate", g.created / 1000.0);
    }

    private static ObjectNode page(List<ObjectNode> rows, String field, int max, String token) throws SchedulerException {
        int from = 0;
        if (token != null) {
            try {
                from = Integer.parseInt(new String(java.util.Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw SchedulerException.validation("Invalid NextToken.");
            }
            if (from < 0 || from > rows.size()) {
                throw SchedulerException.validation("Invalid NextToken.");
            }
        }
        int to = Math.min(rows.size(), from + max);
        ObjectNode out = JSON.createObjectNode();
        ArrayNode a = out.putArray(field);
        rows.subList(from, to).forEach(a::add);
        if (to < rows.size()) {
            out.put("NextToken", java.util.Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(Integer.toString(to).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static int maxResults(String text) throws SchedulerException {
        if (text == null) {
            return 100;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= 100) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw SchedulerException.validation("1 validation error detected: Value '" + text
                + "' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100");
    }

    /** Validates a CreateSchedule/UpdateSchedule body into a definition (the state only checks existence). */
    static ScheduleDefinition definition(String name, JsonNode b, String account) throws SchedulerException {
        name(name);
        String group = group(b.path("GroupName").asText(null));
        String expression = b.path("ScheduleExpression").asText(null);
        if (expression == null) {
            throw missing("scheduleExpression");
        }
        ScheduleExpression.parse(expression);
        String timezone = b.path("ScheduleExpressionTimezone").asText("UTC");
        zone(timezone);
        JsonNode window = b.get("FlexibleTimeWindow");
        if (window == null || !window.isObject()) {
            throw missing("flexibleTimeWindow");
        }
        String mode = window.path("Mode").asText("");
        int minutes = 0;
        if (mode.equals("FLEXIBLE")) {
            minutes = window.path("MaximumWindowInMinutes").asInt(0);
            if (minutes < 1 || minutes > 1440) {
                throw SchedulerException.validation("MaximumWindowInMinutes must be between 1 and 1440 when Mode is FLEXIBLE.");
            }
        } else if (mode.equals("OFF")) {
            if (window.has("MaximumWindowInMinutes")) {
                throw SchedulerException.validation("MaximumWindowInMinutes must not be set when Mode is OFF.");
            }
        } else {
            throw enumValue(mode, "flexibleTimeWindow.mode", "[OFF, FLEXIBLE]");
        }
        String state = b.path("State").asText("ENABLED");
        if (!state.equals("ENABLED") && !state.equals("DISABLED")) {
            throw enumValue(state, "state", "[ENABLED, DISABLED]");
        }
        String after = b.path("ActionAfterCompletion").asText("NONE");
        if (!after.equals("NONE") && !after.equals("DELETE")) {
            throw enumValue(after, "actionAfterCompletion", "[NONE, DELETE]");
        }
        String description = b.path("Description").asText(null);
        if (description != null && description.length() > 512) {
            throw SchedulerException.validation("1 validation error detected: Value at 'description' failed to satisfy constraint: Member must have length less than or equal to 512");
        }
        Long start = date(b.get("StartDate"));
        Long end = date(b.get("EndDate"));
        if (start != null && end != null && end <= start) {
            throw SchedulerException.validation("The StartDate must come before the EndDate.");
        }
        JsonNode target = b.get("Target");
        if (target == null || !target.isObject()) {
            throw missing("target");
        }
        checkTarget(target, account);
        return new ScheduleDefinition(group, name, expression, timezone, start, end, state, description, minutes, after,
                b.path("KmsKeyArn").asText(null), target.toString(), token(b.path("ClientToken").asText(null)));
    }

    /**
     * A FIFO target must have content-based deduplication (AWS's SqsParameters rule: the Scheduler sends no
     * deduplication id). A queue that does not exist (yet) is not refused: AWS does not look at the target at
     * create; its fires fail until it exists. AWS's text for this refusal was not recorded: the wording is Hikyaku's.
     */
    private void checkFifoDeduplication(ScheduleDefinition d) throws SchedulerException {
        String arn = targetArn(d);
        if (arn.endsWith(".fifo") && Boolean.FALSE.equals(targets.contentBasedDeduplication(arn))) {
            throw SchedulerException.validation("Invalid target Arn " + arn
                    + ": a FIFO queue target must have ContentBasedDeduplication enabled.");
        }
    }

    private static void checkTarget(JsonNode t, String account) throws SchedulerException {
        String arn = t.path("Arn").asText(null);
        String role = t.path("RoleArn").asText(null);
        if (arn == null) {
            throw missing("target.arn");
        }
        if (role == null) {
            throw missing("target.roleArn");
        }
        var queue = QUEUE_ARN.matcher(arn);
        boolean topic = TOPIC_ARN.matcher(arn).matches();
        if (!queue.matches() && !topic) {
            throw SchedulerException.validation("Invalid target Arn " + arn
                    + ": this server sends only to SQS queues (arn:aws:sqs:<region>:<account>:<queue>) and standard SNS topics"
                    + " (arn:aws:sns:<region>:<account>:<topic>).");
        }
        var r = ROLE_ARN.matcher(role);
        if (!r.matches() || !r.group(1).equals(account)) {
            throw SchedulerException.validation("Invalid RoleArn " + role + ": it must name an IAM role of account " + account + ".");
        }
        boolean fifo = !topic && queue.group(3) != null;
        JsonNode group = t.path("SqsParameters").get("MessageGroupId");
        if (fifo && (group == null || group.asText().isEmpty() || group.asText().length() > 128)) {
            throw SchedulerException.validation("Target is a FIFO queue: SqsParameters.MessageGroupId (1-128 characters) is required.");
        }
        JsonNode retry = t.get("RetryPolicy");
        if (retry != null) {
            int age = retry.path("MaximumEventAgeInSeconds").asInt(86400);
            int attempts = retry.path("MaximumRetryAttempts").asInt(185);
            if (age < 60 || age > 86400) {
                throw SchedulerException.validation("1 validation error detected: Value '" + age
                        + "' at 'target.retryPolicy.maximumEventAgeInSeconds' failed to satisfy constraint: Member must have value between 60 and 86400");
            }
            if (attempts < 0 || attempts > 185) {
                throw SchedulerException.validation("1 validation error detected: Value '" + attempts
                        + "' at 'target.retryPolicy.maximumRetryAttempts' failed to satisfy constraint: Member must have value between 0 and 185");
            }
        }
        JsonNode dlq = t.path("DeadLetterConfig").get("Arn");
        if (dlq != null && !DLQ_ARN.matcher(dlq.asText()).matches()) { // a standard queue: AWS takes no FIFO DLQ
            throw SchedulerException.validation("1 validation error detected: Value '" + dlq.asText()
                    + "' at 'target.deadLetterConfig.arn' failed to satisfy constraint: Member must satisfy regular expression pattern: "
                    + DLQ_ARN.pattern());
        }
    }

    static ZoneId zone(String timezone) throws SchedulerException {
        if (timezone.isEmpty() || timezone.length() > 50) {
            throw SchedulerException.validation("Invalid timezone " + timezone + ".");
        }
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw SchedulerException.validation("Invalid timezone " + timezone + ".");
        }
    }

    private static Long date(JsonNode n) throws SchedulerException {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isNumber()) {
            throw SchedulerException.validation("Dates are epoch seconds.");
        }
        return Math.round(n.asDouble() * 1000);
    }

    static void name(String name) throws SchedulerException {
        if (name == null || !NAME.matcher(name).matches()) {
            throw SchedulerException.validation("1 validation error detected: Value '" + name
                    + "' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[0-9a-zA-Z-_.]+$");
        }
    }

    private static String group(String group) throws SchedulerException {
        if (group == null) {
            return SchedulerState.DEFAULT_GROUP;
        }
        if (!NAME.matcher(group).matches()) {
            throw SchedulerException.validation("1 validation error detected: Value '" + group
                    + "' at 'groupName' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[0-9a-zA-Z-_.]+$");
        }
        return group;
    }

    private static String token(String token) throws SchedulerException {
        if (token != null && !TOKEN.matcher(token).matches()) {
            throw SchedulerException.validation("1 validation error detected: Value '" + token
                    + "' at 'clientToken' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9-_]+$");
        }
        return token;
    }

    private static Map<String, String> tags(JsonNode n) throws SchedulerException {
        Map<String, String> out = new TreeMap<>();
        if (n == null || !n.isArray()) {
            return out;
        }
        for (JsonNode t : n) {
            String k = t.path("Key").asText("");
            String v = t.path("Value").asText("");
            if (k.isEmpty() || k.length() > 128 || v.length() > 256) {
                throw SchedulerException.validation("Tag keys are 1-128 characters, values 1-256.");
            }
            out.put(k, v);
        }
        return out;
    }

    private static SchedulerException missing(String field) {
        return SchedulerException.validation("1 validation error detected: Value null at '" + field
                + "' failed to satisfy constraint: Member must not be null");
    }

    private static SchedulerException enumValue(String value, String field, String set) {
        return SchedulerException.validation("1 validation error detected: Value '" + value + "' at '" + field
                + "' failed to satisfy constraint: Member must satisfy enum value set: " + set);
    }

    private static String first(Map<String, List<String>> q, String name) {
        List<String> v = q.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return out;
    }
}
