package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameters of a CreateEventSourceMapping or UpdateEventSourceMapping body, checked against the
 * API model's types and constraints (ValidationException); what depends on the queue or the function
 * is checked by {@link EventSourceMappings}. A null field was not given.
 *
 * @param functionName     FunctionName as given (name or ARN)
 * @param eventSourceArn   EventSourceArn (Create only)
 * @param enabled          Enabled
 * @param batchSize        BatchSize (1-10,000 by the model)
 * @param batchingWindow   MaximumBatchingWindowInSeconds (0-300)
 * @param responseTypes    FunctionResponseTypes (each ReportBatchItemFailures)
 * @param scalingGiven     whether ScalingConfig was present (an empty one clears the cap)
 * @param maxConcurrency   ScalingConfig.MaximumConcurrency (2-1,000)
 * @param filterPatterns   FilterCriteria.Filters[].Pattern, or null when FilterCriteria was absent (an
 *                         empty list clears the filters)
 */
record MappingParameters(String functionName, String eventSourceArn, Boolean enabled, Integer batchSize,
                         Integer batchingWindow, List<String> responseTypes, boolean scalingGiven, Integer maxConcurrency,
                         List<String> filterPatterns) {

    /** Parameters that only apply to streams, Kafka, MQ or DocumentDB sources. */
    private static final List<String> NOT_FOR_SQS = List.of("StartingPosition", "StartingPositionTimestamp",
            "ParallelizationFactor", "DestinationConfig", "MaximumRecordAgeInSeconds", "BisectBatchOnFunctionError",
            "MaximumRetryAttempts", "TumblingWindowInSeconds", "Topics", "Queues", "SourceAccessConfigurations",
            "SelfManagedEventSource", "AmazonManagedKafkaEventSourceConfig", "SelfManagedKafkaEventSourceConfig",
            "DocumentDBEventSourceConfig", "ProvisionedPollerConfig");

    static MappingParameters parse(ObjectNode body, boolean create) {
        for (String name : NOT_FOR_SQS) {
            JsonNode v = body.get(name);
            if (v != null && !v.isNull()) {
                throw LambdaException.invalidParameter("Unsupported parameter for an Amazon SQS event source: " + name);
            }
        }
        String functionName = text(body, "FunctionName");
        if (create && functionName == null) {
            throw LambdaException.validation(oneError("null", "functionName", "Member must not be null"));
        }
        if (functionName != null && (functionName.isEmpty() || functionName.length() > 140)) {
            throw LambdaException.validation(oneError("'" + functionName + "'", "functionName",
                    "Member must have length " + (functionName.isEmpty() ? "greater than or equal to 1" : "less than or equal to 140")));
        }
        String eventSourceArn = text(body, "EventSourceArn");
        Integer batchSize = range(body, "BatchSize", "batchSize", 1, 10_000);
        Integer window = range(body, "MaximumBatchingWindowInSeconds", "maximumBatchingWindowInSeconds", 0, 300);
        List<String> types = null;
        JsonNode typesNode = body.get("FunctionResponseTypes");
        if (typesNode != null && !typesNode.isNull()) {
            if (!typesNode.isArray()) {
                throw badContent("FunctionResponseTypes must be a list");
            }
            types = new ArrayList<>();
            for (JsonNode t : typesNode) {
                if (!t.isTextual() || !t.asText().equals(EventSourceMapping.REPORT_BATCH_ITEM_FAILURES)) {
                    throw LambdaException.validation(oneError("'[" + t.asText() + "]'", "functionResponseTypes",
                            "Member must satisfy constraint: [Member must satisfy enum value set: [ReportBatchItemFailures]]"));
                }
                types.add(t.asText());
            }
        }
        boolean scalingGiven = false;
        Integer maxConcurrency = null;
        JsonNode scaling = body.get("ScalingConfig");
        if (scaling != null && !scaling.isNull()) {
            if (!scaling.isObject()) {
                throw badContent("ScalingConfig must be an object");
            }
            scalingGiven = true;
            maxConcurrency = range((ObjectNode) scaling, "MaximumConcurrency", "scalingConfig.maximumConcurrency", 2, 1000);
        }
        List<String> patterns = null;
        JsonNode criteria = body.get("FilterCriteria");
        if (criteria != null && !criteria.isNull()) {
            if (!criteria.isObject()) {
                throw badContent("FilterCriteria must be an object");
            }
            patterns = new ArrayList<>();
            JsonNode filters = criteria.get("Filters");
            if (filters != null && !filters.isNull()) {
                if (!filters.isArray()) {
                    throw badContent("FilterCriteria.Filters must be a list");
                }
                for (JsonNode f : filters) {
                    JsonNode p = f.get("Pattern");
                    if (p == null || p.isNull()) {
                        continue; // a filter without a pattern filters nothing
                    }
                    if (!p.isTextual()) {
                        throw badContent("FilterCriteria.Filters[].Pattern must be a string");
                    }
                    if (p.asText().length() > io.hikyaku.filter.FilterCriteria.MAX_PATTERN_LENGTH) {
                        throw LambdaException.validation(oneError("'" + p.asText() + "'", "filterCriteria.filters.member.pattern",
                                "Member must have length less than or equal to " + io.hikyaku.filter.FilterCriteria.MAX_PATTERN_LENGTH));
                    }
                    patterns.add(p.asText());
                }
            }
        }
        return new MappingParameters(functionName, eventSourceArn, bool(body, "Enabled"), batchSize, window, types,
                scalingGiven, maxConcurrency, patterns);
    }

    private static String text(ObjectNode body, String name) {
        JsonNode v = body.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw badContent(name + " must be a string");
        }
        return v.asText();
    }

    private static Boolean bool(ObjectNode body, String name) {
        JsonNode v = body.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isBoolean()) {
            throw badContent(name + " must be a boolean");
        }
        return v.asBoolean();
    }

    private static Integer range(ObjectNode body, String name, String member, int min, int max) {
        JsonNode v = body.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw badContent(name + " must be an integer");
        }
        int value = v.asInt();
        if (value < min) {
            throw LambdaException.validation(oneError("'" + value + "'", member, "Member must have value greater than or equal to " + min));
        }
        if (value > max) {
            throw LambdaException.validation(oneError("'" + value + "'", member, "Member must have value less than or equal to " + max));
        }
        return value;
    }

    /** The AWS model-validation message. */
    static String oneError(String value, String member, String constraint) {
        return "1 validation error detected: Value " + value + " at '" + member + "' failed to satisfy constraint: " + constraint;
    }

    static LambdaException badContent(String detail) {
        return new LambdaException("InvalidRequestContentException", 400, "Could not parse request body into json: " + detail);
    }
}
