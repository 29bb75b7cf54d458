package io.hikyaku.server.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.push.DeclaredMapping;
import io.hikyaku.server.QueueDefinition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Hikyaku takes from one SAM template: the mappings of the {@code SQS} events of
 * {@code AWS::Serverless::Function} resources and of {@code AWS::Lambda::EventSourceMapping}
 * resources (as CreateEventSourceMapping parameters, so Lambda's validation applies at start), the
 * {@code AWS::SQS::Queue} resources, and the functions' Timeout. Everything else is ignored.
 *
 * @param queues   the template's queues, in the default account
 * @param mappings the declared mappings, each with the template and resource it came from
 * @param timeouts function name (as the config file's functions know it) to the template's Timeout
 */
record SamTemplate(List<QueueDefinition> queues, List<DeclaredMapping> mappings, Map<String, Integer> timeouts) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ESM = "AWS::Lambda::EventSourceMapping";

    static SamTemplate read(Path file, Set<String> functions, String account, String region) {
        return read(SamYaml.load(file), file.toString(), functions, account, region);
    }

    /**
     * @param functions the names of the config file's functions (a template's function must be one)
     * @throws ConfigException naming the template, the resource and the property that cannot be used
     */
    static SamTemplate read(Map<String, Object> template, String source, Set<String> functions, String account, String region) {
        SamIntrinsics in = new SamIntrinsics(source, template, account, region);
        if (in.resources().isEmpty()) {
            throw new ConfigException(source + ": the template has no Resources");
        }
        Object globalTimeout = in.section("Globals").get("Function") instanceof Map<?, ?> g ? g.get("Timeout") : null;
        List<QueueDefinition> queues = new ArrayList<>();
        List<DeclaredMapping> mappings = new ArrayList<>();
        Map<String, Integer> timeouts = new LinkedHashMap<>();
        for (String id : in.resources().keySet()) {
            String type = in.typeOf(id);
            String where = "Resources." + id;
            if (SamIntrinsics.QUEUE.equals(type)) {
                queues.add(SamQueue.definition(in, id));
            } else if (SamIntrinsics.SAM_FUNCTION.equals(type)) {
                Map<String, Object> p = in.properties(id);
                Map<String, Object> events = p.get("Events") instanceof Map<?, ?> e ? SamIntrinsics.cast(e) : Map.of();
                boolean polls = events.values().stream().anyMatch(e -> e instanceof Map<?, ?> m && "SQS".equals(String.valueOf(m.get("Type"))));
                String name;
                try {
                    name = in.functionNameAt(where + ".Properties.FunctionName", id);
                } catch (ConfigException e) {
                    if (polls) {
                        throw e;
                    }
                    continue; // a function without SQS events does not concern Hikyaku, whatever its name
                }
                Object timeout = p.get("Timeout") != null ? p.get("Timeout") : globalTimeout;
                if (timeout != null && functions.contains(name)) {
                    String at = p.get("Timeout") != null ? where + ".Properties.Timeout" : "Globals.Function.Timeout";
                    timeouts.put(name, integer(source, at, in.text(at, timeout)));
                }
                for (Map.Entry<String, Object> e : events.entrySet()) {
                    if (!(e.getValue() instanceof Map<?, ?> event) || !"SQS".equals(String.valueOf(event.get("Type")))) {
                        continue;
                    }
                    String eventWhere = where + ".Properties.Events." + e.getKey();
                    requireFunction(source, where + " (" + type + ")", name, functions, "its FunctionName, or its logical id");
                    Map<String, Object> ep = event.get("Properties") instanceof Map<?, ?> m ? SamIntrinsics.cast(m) : Map.of();
                    if (ep.get("Queue") == null) {
                        throw new ConfigException(source + ": " + eventWhere + ".Properties.Queue: an SQS event needs a Queue");
                    }
                    ObjectNode request = JSON.createObjectNode().put("FunctionName", name)
                            .put("EventSourceArn", in.text(eventWhere + ".Properties.Queue", ep.get("Queue")));
                    parameters(in, source, eventWhere + ".Properties", ep, Set.of("Queue"), request);
                    mappings.add(new DeclaredMapping(null, request, source + ": " + eventWhere));
                }
            } else if (ESM.equals(type)) {
                Map<String, Object> p = in.properties(id);
                String fnWhere = where + ".Properties.FunctionName";
                if (p.get("FunctionName") == null) {
                    throw new ConfigException(source + ": " + fnWhere + ": an event source mapping needs a FunctionName");
                }
                String fn = in.text(fnWhere, p.get("FunctionName"));
                int at = fn.indexOf(":function:");
                requireFunction(source, fnWhere, at < 0 ? fn : fn.substring(at + ":function:".length()), functions, "FunctionName");
                ObjectNode request = JSON.createObjectNode().put("FunctionName", fn);
                parameters(in, source, where + ".Properties", p, Set.of("FunctionName"), request);
                mappings.add(new DeclaredMapping(null, request, source + ": " + where));
            }
        }
        return new SamTemplate(queues, mappings, timeouts);
    }

    private static void requireFunction(String source, String where, String name, Set<String> functions, String from) {
        if (!functions.contains(name)) {
            throw new ConfigException(source + ": " + where + ": function " + name + " (" + from
                    + ") is not a function of the config file; declare it under functions: with the url Hikyaku calls");
        }
    }

    /** The Lambda API's parameters from template properties; values are resolved and typed as the API takes them. */
    private static void parameters(SamIntrinsics in, String source, String where, Map<String, Object> props,
                                   Set<String> skip, ObjectNode request) {
        for (Map.Entry<String, Object> e : props.entrySet()) {
            String key = e.getKey();
            String at = where + "." + key;
            if (skip.contains(key) || e.getValue() == null) {
                continue;
            }
            Object value = in.deep(at, e.getValue());
            switch (key) {
                case "BatchSize", "MaximumBatchingWindowInSeconds" -> request.put(key, integer(source, at, text(source, at, value)));
                case "Enabled" -> request.put(key, bool(source, at, text(source, at, value)));
                case "FunctionResponseTypes" -> {
                    ArrayNode list = request.putArray(key);
                    for (Object t : list(source, at, value)) {
                        list.add(text(source, at, t));
                    }
                }
                case "ScalingConfig" -> {
                    ObjectNode scaling = request.putObject(key);
                    Map<String, Object> m = map(source, at, value);
                    if (m.get("MaximumConcurrency") != null) {
                        scaling.put("MaximumConcurrency", integer(source, at + ".MaximumConcurrency",
                                text(source, at + ".MaximumConcurrency", m.get("MaximumConcurrency"))));
                    }
                }
                case "FilterCriteria" -> {
                    ArrayNode filters = request.putObject(key).putArray("Filters");
                    Object fs = map(source, at, value).get("Filters");
                    for (Object f : fs == null ? List.of() : list(source, at + ".Filters", fs)) {
                        Object pattern = map(source, at + ".Filters", f).get("Pattern");
                        // CloudFormation takes the pattern as JSON text; a YAML mapping is written as that text
                        filters.addObject().put("Pattern", pattern instanceof Map<?, ?> || pattern instanceof List<?>
                                ? JSON.valueToTree(pattern).toString() : text(source, at + ".Filters.Pattern", pattern));
                    }
                }
                case "Tags" -> {
                    ObjectNode tags = request.putObject(key);
                    if (value instanceof Map<?, ?> m) {
                        m.forEach((k, v) -> tags.put(String.valueOf(k), String.valueOf(v)));
                    } else {
                        for (Object t : list(source, at, value)) {
                            Map<String, Object> tag = map(source, at, t);
                            tags.put(text(source, at + ".Key", tag.get("Key")), text(source, at + ".Value", tag.get("Value")));
                        }
                    }
                }
                // stream-only and other parameters: Lambda's own validation answers them
                default -> request.set(key, JSON.valueToTree(value));
            }
        }
    }

    static int integer(String source, String where, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(source + ": " + where + ": not an integer: " + text, e);
        }
    }

    private static boolean bool(String source, String where, String text) {
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new ConfigException(source + ": " + where + ": must be true or false: " + text);
        }
        return Boolean.parseBoolean(text.toLowerCase(java.util.Locale.ROOT));
    }

    static String text(String source, String where, Object value) {
        if (value == null || value instanceof Map<?, ?> || value instanceof List<?>) {
            throw new ConfigException(source + ": " + where + ": must be a single value");
        }
        return value.toString();
    }

    private static List<?> list(String source, String where, Object value) {
        if (!(value instanceof List<?> l)) {
            throw new ConfigException(source + ": " + where + ": must be a list");
        }
        return l;
    }

    static Map<String, Object> map(String source, String where, Object value) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new ConfigException(source + ": " + where + ": must be a mapping");
        }
        return SamIntrinsics.cast(m);
    }
}
