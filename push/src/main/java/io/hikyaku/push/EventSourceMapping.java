package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.filter.FilterCriteria;
import io.hikyaku.filter.InvalidPatternException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One event source mapping: which queue feeds which function, and how. Immutable; an update makes a
 * new one.
 *
 * @param uuid                   the mapping's id
 * @param account                the account that owns the mapping (the caller that created it)
 * @param region                 the region in its ARNs
 * @param functionName           the function (by name; functions are declared in the config file)
 * @param queue                  the event source
 * @param fifo                   whether the queue is FIFO (batches of one message group, in order)
 * @param batchSize              most records per invocation
 * @param batchingWindowSeconds  how long to gather records before invoking (standard queues)
 * @param reportBatchItemFailures whether the function's batchItemFailures answer is honoured
 * @param maximumConcurrency     most concurrent invocations, or null for the server's default cap
 * @param filters                filter patterns; records that match none are deleted without an invocation
 * @param enabled                whether pollers run
 * @param lastModifiedMillis     when the mapping last changed
 * @param tags                   the mapping's tags (Lambda's TagResource / ListTags / UntagResource, Tags on create)
 */
public record EventSourceMapping(String uuid, String account, String region, String functionName, QueueArn queue,
                                 boolean fifo, int batchSize, int batchingWindowSeconds, boolean reportBatchItemFailures,
                                 Integer maximumConcurrency, FilterCriteria filters, boolean enabled,
                                 long lastModifiedMillis, Map<String, String> tags) {

    /** Concurrency cap when ScalingConfig is not set (a self-hosted endpoint is not an elastic fleet). */
    public static final int DEFAULT_MAX_CONCURRENCY = 10;
    public static final String REPORT_BATCH_ITEM_FAILURES = "ReportBatchItemFailures";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public EventSourceMapping {
        Objects.requireNonNull(uuid);
        Objects.requireNonNull(queue);
        filters = filters == null ? FilterCriteria.NONE : filters;
        tags = tags == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(tags));
    }

    /** A mapping without tags. */
    public EventSourceMapping(String uuid, String account, String region, String functionName, QueueArn queue,
                              boolean fifo, int batchSize, int batchingWindowSeconds, boolean reportBatchItemFailures,
                              Integer maximumConcurrency, FilterCriteria filters, boolean enabled, long lastModifiedMillis) {
        this(uuid, account, region, functionName, queue, fifo, batchSize, batchingWindowSeconds, reportBatchItemFailures,
                maximumConcurrency, filters, enabled, lastModifiedMillis, Map.of());
    }

    /** This mapping with {@code newTags} instead of its tags (tags are not a change of the mapping: LastModified stays). */
    public EventSourceMapping withTags(Map<String, String> newTags) {
        return new EventSourceMapping(uuid, account, region, functionName, queue, fifo, batchSize, batchingWindowSeconds,
                reportBatchItemFailures, maximumConcurrency, filters, enabled, lastModifiedMillis, newTags);
    }

    public int effectiveMaxConcurrency() {
        return maximumConcurrency == null ? DEFAULT_MAX_CONCURRENCY : maximumConcurrency;
    }

    public String functionArn() {
        return "arn:aws:lambda:" + region + ":" + account + ":function:" + functionName;
    }

    public String arn() {
        return "arn:aws:lambda:" + region + ":" + account + ":event-source-mapping:" + uuid;
    }

    /** The final state of a mapping at rest. */
    public String restingState() {
        return enabled ? "Enabled" : "Disabled";
    }

    /** The EventSourceMappingConfiguration shape of the Lambda API, showing {@code state}. */
    public ObjectNode toApiJson(String state) {
        ObjectNode out = NODES.objectNode();
        out.put("UUID", uuid);
        out.put("BatchSize", batchSize);
        out.put("MaximumBatchingWindowInSeconds", batchingWindowSeconds);
        out.put("EventSourceArn", queue.toString());
        if (!filters.isEmpty()) {
            var list = out.putObject("FilterCriteria").putArray("Filters");
            for (String p : filters.patterns()) {
                list.addObject().put("Pattern", p);
            }
        }
        out.put("FunctionArn", functionArn());
        // REST-JSON timestamps are epoch seconds; keep the milliseconds as a fraction
        out.put("LastModified", BigDecimal.valueOf(lastModifiedMillis, 3));
        out.put("State", state);
        out.put("StateTransitionReason", "USER_INITIATED");
        var types = out.putArray("FunctionResponseTypes");
        if (reportBatchItemFailures) {
            types.add(REPORT_BATCH_ITEM_FAILURES);
        }
        if (maximumConcurrency != null) {
            out.putObject("ScalingConfig").put("MaximumConcurrency", maximumConcurrency);
        }
        out.put("EventSourceMappingArn", arn());
        return out;
    }

    /** The form kept in the mappings file. */
    ObjectNode toStoredJson() {
        ObjectNode out = NODES.objectNode();
        out.put("uuid", uuid).put("account", account).put("region", region).put("functionName", functionName)
                .put("eventSourceArn", queue.toString()).put("fifo", fifo).put("batchSize", batchSize)
                .put("batchingWindowSeconds", batchingWindowSeconds).put("reportBatchItemFailures", reportBatchItemFailures)
                .put("enabled", enabled).put("lastModifiedMillis", lastModifiedMillis);
        if (maximumConcurrency != null) {
            out.put("maximumConcurrency", maximumConcurrency);
        }
        var list = out.putArray("filters");
        filters.patterns().forEach(list::add);
        if (!tags.isEmpty()) {
            ObjectNode t = out.putObject("tags");
            tags.forEach(t::put);
        }
        return out;
    }

    static EventSourceMapping fromStoredJson(JsonNode in) {
        List<String> patterns = new ArrayList<>();
        in.path("filters").forEach(p -> patterns.add(p.asText()));
        FilterCriteria filters;
        try {
            filters = FilterCriteria.of(patterns);
        } catch (InvalidPatternException e) {
            throw new IllegalStateException("mapping " + in.path("uuid").asText() + ": stored filter no longer compiles: " + e.getMessage());
        }
        QueueArn queue = QueueArn.parse(in.path("eventSourceArn").asText())
                .orElseThrow(() -> new IllegalStateException("mapping " + in.path("uuid").asText() + ": bad eventSourceArn"));
        return new EventSourceMapping(in.path("uuid").asText(), in.path("account").asText(), in.path("region").asText(),
                in.path("functionName").asText(), queue, in.path("fifo").asBoolean(), in.path("batchSize").asInt(),
                in.path("batchingWindowSeconds").asInt(), in.path("reportBatchItemFailures").asBoolean(),
                in.hasNonNull("maximumConcurrency") ? in.get("maximumConcurrency").asInt() : null, filters,
                in.path("enabled").asBoolean(true), in.path("lastModifiedMillis").asLong(), storedTags(in.path("tags")));
    }

    private static Map<String, String> storedTags(JsonNode in) {
        Map<String, String> tags = new TreeMap<>();
        in.fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
        return tags;
    }
}
