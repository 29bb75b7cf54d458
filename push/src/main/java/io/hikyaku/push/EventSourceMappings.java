package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.filter.FilterCriteria;
import io.hikyaku.filter.InvalidPatternException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event source mappings: the five Lambda operations with Lambda's validation and errors, kept in
 * a {@link MappingStore} and run by {@link Delivery}. One lock orders all changes; each change is
 * stored before it takes effect.
 *
 * <p>States: the answer to Create shows {@code Creating}, to Update {@code Updating} (or
 * {@code Enabling} / {@code Disabling} when Enabled changes), to Delete {@code Deleting}; the change is
 * applied before the answer is sent, so the next Get already shows {@code Enabled} or {@code Disabled}
 * (and a deleted mapping is gone).
 */
public final class EventSourceMappings {

    private static final Logger LOG = LoggerFactory.getLogger(EventSourceMappings.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final int DEFAULT_BATCH_SIZE = 10;
    static final int DEFAULT_LIST_ITEMS = 100;

    private final Functions functions;
    private final MappingStore store;
    private final QueueClient queues;
    private final Delivery delivery;
    private final Clock clock;
    private final String region;
    private final Map<String, EventSourceMapping> mappings = new LinkedHashMap<>();
    private final QueueAccess access;

    EventSourceMappings(Functions functions, MappingStore store, QueueClient queues, Delivery delivery, Clock clock, String region,
                        QueueAccess access) {
        this.access = access;
        this.functions = functions;
        this.store = store;
        this.queues = queues;
        this.delivery = delivery;
        this.clock = clock;
        this.region = region;
    }

    /** Loads the stored mappings and starts the enabled ones whose function still exists. */
    synchronized void loadAndStart() {
        for (EventSourceMapping m : store.load()) {
            mappings.put(m.uuid(), m);
            FunctionConfig f = functions.get(m.account(), m.functionName()).orElse(null);
            if (f == null) {
                LOG.warn("event source mapping {}: account {} has no function {} in the config file; not polling {}",
                        m.uuid(), m.account(), m.functionName(), m.queue());
                continue;
            }
            if (!access.allows(m.account(), m.queue())) {
                LOG.warn("event source mapping {}: account {} may not receive from {}; not polling", m.uuid(), m.account(), m.queue());
                continue;
            }
            delivery.apply(m, f);
        }
        if (!mappings.isEmpty()) {
            LOG.info("{} event source mapping(s) loaded", mappings.size());
        }
    }

    synchronized ObjectNode create(String account, ObjectNode body) {
        MappingParameters p = MappingParameters.parse(body, true);
        FunctionConfig function = functions.resolve(account, p.functionName());
        if (p.eventSourceArn() == null) {
            throw LambdaException.invalidParameter("Unrecognized event source, must be kinesis, dynamodb stream or sqs.");
        }
        QueueArn queue = QueueArn.parse(p.eventSourceArn()).orElseThrow(() ->
                LambdaException.invalidParameter("Unrecognized event source, must be kinesis, dynamodb stream or sqs."));
        QueueClient.QueueInfo info = describe(account, queue);
        for (EventSourceMapping m : mappings.values()) {
            if (m.account().equals(account) && m.functionName().equals(function.name()) && m.queue().equals(queue)) {
                throw duplicate(queue, function.name(), m.uuid());
            }
        }
        EventSourceMapping mapping = build(UUID.randomUUID().toString(), account, function, queue, info,
                p.batchSize() == null ? DEFAULT_BATCH_SIZE : p.batchSize(),
                p.batchingWindow() == null ? 0 : p.batchingWindow(),
                p.responseTypes() != null && !p.responseTypes().isEmpty(),
                p.maxConcurrency(), p.filterPatterns() == null ? List.of() : p.filterPatterns(),
                p.enabled() == null || p.enabled()).withTags(MappingTags.parse(body.get("Tags"), Map.of()));
        commit(mapping);
        delivery.apply(mapping, function);
        LOG.info("event source mapping {} created: {} -> {} ({})", mapping.uuid(), queue, function.name(), mapping.restingState());
        return mapping.toApiJson("Creating");
    }

    synchronized ObjectNode get(String account, String uuid) {
        EventSourceMapping m = owned(account, uuid);
        return m.toApiJson(m.restingState());
    }

    synchronized ObjectNode update(String account, String uuid, ObjectNode body) {
        EventSourceMapping old = owned(account, uuid);
        MappingParameters p = MappingParameters.parse(body, false);
        FunctionConfig function = p.functionName() == null ? functions.resolve(account, old.functionName())
                : functions.resolve(account, p.functionName());
        if (!function.name().equals(old.functionName())) {
            for (EventSourceMapping m : mappings.values()) {
                if (m.account().equals(account) && m.functionName().equals(function.name()) && m.queue().equals(old.queue())) {
                    throw duplicate(old.queue(), function.name(), m.uuid());
                }
            }
        }
        QueueClient.QueueInfo info = describe(account, old.queue());
        EventSourceMapping mapping = build(old.uuid(), account, function, old.queue(), info,
                p.batchSize() == null ? old.batchSize() : p.batchSize(),
                p.batchingWindow() == null ? old.batchingWindowSeconds() : p.batchingWindow(),
                p.responseTypes() == null ? old.reportBatchItemFailures() : !p.responseTypes().isEmpty(),
                p.scalingGiven() ? p.maxConcurrency() : old.maximumConcurrency(),
                p.filterPatterns() == null ? old.filters().patterns() : p.filterPatterns(),
                p.enabled() == null ? old.enabled() : p.enabled()).withTags(old.tags());
        commit(mapping);
        delivery.apply(mapping, function);
        String state = mapping.enabled() == old.enabled() ? "Updating" : mapping.enabled() ? "Enabling" : "Disabling";
        LOG.info("event source mapping {} updated: {} -> {} ({}{})", uuid, mapping.queue(), function.name(),
                old.restingState().equals(mapping.restingState()) ? "" : old.restingState() + " -> ", mapping.restingState());
        return mapping.toApiJson(state);
    }

    synchronized ObjectNode delete(String account, String uuid) {
        EventSourceMapping m = owned(account, uuid);
        List<EventSourceMapping> rest = new ArrayList<>(mappings.values());
        rest.remove(m);
        save(rest);
        mappings.remove(uuid);
        delivery.remove(uuid);
        LOG.info("event source mapping {} deleted: {} -> {} ({} -> Deleted)", uuid, m.queue(), m.functionName(), m.restingState());
        return m.toApiJson("Deleting");
    }

    synchronized ObjectNode list(String account, String eventSourceArn, String functionName, String marker, Integer maxItems) {
        int max = maxItems == null ? DEFAULT_LIST_ITEMS : maxItems;
        String name = functionName == null ? null : functions.nameOf(account, functionName);
        List<EventSourceMapping> matching = new ArrayList<>();
        for (EventSourceMapping m : mappings.values()) {
            if (m.account().equals(account)
                    && (eventSourceArn == null || m.queue().toString().equals(eventSourceArn))
                    && (functionName == null || m.functionName().equals(name))) {
                matching.add(m);
            }
        }
        int from = 0;
        if (marker != null) {
            from = -1;
            for (int i = 0; i < matching.size(); i++) {
                if (matching.get(i).uuid().equals(marker)) {
                    from = i;
                    break;
                }
            }
            if (from < 0) {
                throw LambdaException.invalidParameter("Invalid marker: " + marker);
            }
        }
        ObjectNode out = NODES.objectNode();
        var list = out.putArray("EventSourceMappings");
        int to = Math.min(matching.size(), from + max);
        for (int i = from; i < to; i++) {
            list.add(matching.get(i).toApiJson(matching.get(i).restingState()));
        }
        if (to < matching.size()) {
            out.put("NextMarker", matching.get(to).uuid());
        }
        return out;
    }

    /** Applies a config-file mapping: an update of the same function+queue mapping, or a create. */
    synchronized void declare(String account, DeclaredMapping declared) {
        ObjectNode request = declared.request().deepCopy();
        if (declared.queueName() != null) {
            request.put("EventSourceArn", "arn:aws:sqs:" + region + ":" + account + ":" + declared.queueName());
        }
        String fn = request.path("FunctionName").asText(null);
        String arn = request.path("EventSourceArn").asText(null);
        String name = fn == null ? null : functions.nameOf(account, fn);
        FunctionConfig function = name == null ? null : functions.get(account, name).orElse(null);
        if (function != null && arn != null) {
            for (EventSourceMapping m : mappings.values()) {
                if (m.account().equals(account) && m.functionName().equals(function.name()) && m.queue().toString().equals(arn)) {
                    ObjectNode changes = request.deepCopy();
                    changes.remove("EventSourceArn");
                    if (!changes.has("FilterCriteria")) {
                        changes.putObject("FilterCriteria"); // the file is the truth: no filters there, none here
                    }
                    if (!changes.has("ScalingConfig")) {
                        changes.putObject("ScalingConfig");
                    }
                    if (!changes.has("FunctionResponseTypes")) {
                        changes.putArray("FunctionResponseTypes");
                    }
                    update(account, m.uuid(), changes);
                    return;
                }
            }
        }
        create(account, request);
    }

    private EventSourceMapping build(String uuid, String account, FunctionConfig function, QueueArn queue,
                                     QueueClient.QueueInfo info, int batchSize, int window, boolean reportFailures,
                                     Integer maxConcurrency, List<String> patterns, boolean enabled) {
        if (info.fifo()) {
            if (window > 0) {
                throw LambdaException.invalidParameter("Batching window is not supported for FIFO queues");
            }
            if (batchSize > 10) {
                throw LambdaException.invalidParameter("Maximum batch size must be between 1 and 10 inclusive");
            }
        } else if (batchSize > 10 && window == 0) {
            throw LambdaException.invalidParameter(
                    "Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10");
        }
        if (info.visibilityTimeoutSeconds() < function.timeoutSeconds()) {
            throw LambdaException.invalidParameter("Queue visibility timeout: " + info.visibilityTimeoutSeconds()
                    + " seconds is less than Function timeout: " + function.timeoutSeconds() + " seconds");
        }
        if (patterns.size() > FilterCriteria.MAX_FILTERS) {
            throw LambdaException.invalidParameter("The number of filters (" + patterns.size()
                    + ") exceeds the maximum of " + FilterCriteria.MAX_FILTERS + " for an event source mapping.");
        }
        FilterCriteria filters;
        try {
            filters = FilterCriteria.of(patterns);
        } catch (InvalidPatternException e) {
            throw LambdaException.invalidParameter("Invalid filter pattern definition.");
        }
        return new EventSourceMapping(uuid, account, region, function.name(), queue, info.fifo(), batchSize, window,
                reportFailures, maxConcurrency, filters, enabled, clock.millis());
    }

    /** The queue as {@code account} sees it; refused before the queue is read when the account may not use it. */
    private QueueClient.QueueInfo describe(String account, QueueArn queue) {
        if (!access.allows(account, queue)) {
            // Lambda's answer when the function's role may not receive from the queue (said before its existence is known)
            throw LambdaException.invalidParameter("The provided execution role does not have permissions to call ReceiveMessage on SQS");
        }
        if (!queue.region().equals(region)) {
            throw nonExistentQueue();
        }
        try {
            return queues.describe(account, queue).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | CompletionException e) {
            if (e.getCause() instanceof ApiException api && api.errorType().equals("QueueDoesNotExist")) {
                throw nonExistentQueue();
            }
            throw new LambdaException("ServiceException", 500, "The queue could not be read: " + e.getCause());
        } catch (TimeoutException e) {
            throw new LambdaException("ServiceException", 500, "The queue could not be read in time.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LambdaException("ServiceException", 500, "Interrupted.");
        }
    }

    private static LambdaException nonExistentQueue() {
        return LambdaException.invalidParameter("Error occurred while ReceiveMessage. SQS Error Code: "
                + "AWS.SimpleQueueService.NonExistentQueue. SQS Error Message: The specified queue does not exist.");
    }

    private static LambdaException duplicate(QueueArn queue, String functionName, String uuid) {
        return LambdaException.conflict("An event source mapping with SQS arn (\" " + queue + " \") and function (\" "
                + functionName + " \") already exists. Please update or delete the existing mapping with UUID " + uuid);
    }

    /** ListTags of a mapping's ARN. */
    synchronized ObjectNode listTags(String account, String arn) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ObjectNode tags = out.putObject("Tags");
        byArn(account, arn).tags().forEach(tags::put);
        return out;
    }

    /** TagResource: adds or replaces the tags of {@code body.Tags}. */
    synchronized void tag(String account, String arn, JsonNode tags) {
        EventSourceMapping m = byArn(account, arn);
        if (tags == null || tags.isNull()) {
            throw LambdaException.validation(MappingParameters.oneError("null", "tags", "Member must not be null"));
        }
        commit(m.withTags(MappingTags.parse(tags, m.tags())));
    }

    /** UntagResource: removes {@code keys} (absent keys are ignored, as Lambda does). */
    synchronized void untag(String account, String arn, List<String> keys) {
        EventSourceMapping m = byArn(account, arn);
        if (keys.isEmpty()) {
            throw LambdaException.validation(MappingParameters.oneError("null", "tagKeys", "Member must not be null"));
        }
        Map<String, String> rest = new LinkedHashMap<>(m.tags());
        keys.forEach(rest::remove);
        commit(m.withTags(rest));
    }

    /** The caller's mapping named by {@code arn:aws:lambda:{region}:{account}:event-source-mapping:{UUID}}. */
    private EventSourceMapping byArn(String account, String arn) {
        String prefix = "arn:aws:lambda:" + region + ":" + account + ":event-source-mapping:";
        if (arn == null || !arn.startsWith(prefix)) {
            throw LambdaException.noSuchMapping();
        }
        return owned(account, arn.substring(prefix.length()));
    }

    private EventSourceMapping owned(String account, String uuid) {
        EventSourceMapping m = mappings.get(uuid);
        if (m == null || !m.account().equals(account)) {
            throw LambdaException.noSuchMapping();
        }
        return m;
    }

    /** Stores the mapping (new or changed) and only then makes it current. */
    private void commit(EventSourceMapping mapping) {
        Map<String, EventSourceMapping> next = new LinkedHashMap<>(mappings);
        next.put(mapping.uuid(), mapping);
        save(new ArrayList<>(next.values()));
        mappings.put(mapping.uuid(), mapping);
    }

    private void save(List<EventSourceMapping> all) {
        try {
            store.save(all);
        } catch (RuntimeException e) {
            LOG.error("cannot store event source mappings", e);
            throw new LambdaException("ServiceException", 500, "The event source mappings could not be stored: " + e.getMessage());
        }
    }
}
