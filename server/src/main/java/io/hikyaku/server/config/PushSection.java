package io.hikyaku.server.config;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.push.DeclaredMapping;
import io.hikyaku.push.FunctionConfig;
import io.hikyaku.push.PushConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The config file's {@code functions} and {@code eventSourceMappings} sections (push delivery,
 * docs/push-delivery.md). Every scalar arrives as text (see {@link StringScalarResolver}); filter
 * patterns are written as JSON text, exactly as Lambda's FilterCriteria takes them.
 */
final class PushSection {

    private static final Set<String> FUNCTION_KEYS = Set.of("name", "url", "timeoutSeconds", "headers", "signingSecret",
            "account");
    private static final Set<String> MAPPING_KEYS = Set.of("functionName", "queue", "eventSourceArn", "batchSize",
            "maximumBatchingWindowInSeconds", "functionResponseTypes", "maximumConcurrency", "enabled", "filters");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PushSection() {}

    static PushConfig parse(String source, Object functions, Object mappings) {
        List<FunctionConfig> fs = new ArrayList<>();
        int i = 0;
        for (Map<String, Object> f : list(source + ": functions", functions)) {
            fs.add(function(source + ": functions[" + i++ + "]", f));
        }
        List<DeclaredMapping> ms = new ArrayList<>();
        i = 0;
        for (Map<String, Object> m : list(source + ": eventSourceMappings", mappings)) {
            ms.add(mapping(source + ": eventSourceMappings[" + i++ + "]", m));
        }
        return new PushConfig(fs, ms);
    }

    private static FunctionConfig function(String source, Map<String, Object> f) {
        check(source, f, FUNCTION_KEYS);
        String url = text(source, f, "url");
        if (url == null) {
            throw new ConfigException(source + ": a function needs a url");
        }
        try {
            String timeout = text(source, f, "timeoutSeconds");
            Map<String, String> headers = new LinkedHashMap<>();
            Object h = f.get("headers");
            if (h != null) {
                if (!(h instanceof Map<?, ?> hm)) {
                    throw new ConfigException(source + ".headers: must be a mapping of header names to values");
                }
                hm.forEach((k, v) -> headers.put(String.valueOf(k), v == null ? "" : v.toString()));
            }
            return new FunctionConfig(text(source, f, "name") == null ? "" : text(source, f, "name"), new URI(url),
                    timeout == null ? FunctionConfig.DEFAULT_TIMEOUT_SECONDS : SettingValues.integer(source + ".timeoutSeconds", timeout),
                    headers, text(source, f, "signingSecret"), text(source, f, "account"));
        } catch (URISyntaxException e) {
            throw new ConfigException(source + ".url: not a URL: " + url, e);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(source + ": " + e.getMessage(), e);
        }
    }

    /** Turns the entry into CreateEventSourceMapping parameters, so the API's validation applies at start. */
    private static DeclaredMapping mapping(String source, Map<String, Object> m) {
        check(source, m, MAPPING_KEYS);
        String queue = text(source, m, "queue");
        String arn = text(source, m, "eventSourceArn");
        if ((queue == null) == (arn == null)) {
            throw new ConfigException(source + ": give either queue (a queue name) or eventSourceArn");
        }
        String function = text(source, m, "functionName");
        if (function == null) {
            throw new ConfigException(source + ": a mapping needs a functionName");
        }
        ObjectNode request = NODES.objectNode().put("FunctionName", function);
        if (arn != null) {
            request.put("EventSourceArn", arn);
        }
        integer(source, m, "batchSize", request, "BatchSize");
        integer(source, m, "maximumBatchingWindowInSeconds", request, "MaximumBatchingWindowInSeconds");
        String max = text(source, m, "maximumConcurrency");
        if (max != null) {
            request.putObject("ScalingConfig").put("MaximumConcurrency", SettingValues.integer(source + ".maximumConcurrency", max));
        }
        String enabled = text(source, m, "enabled");
        if (enabled != null) {
            if (!enabled.equals("true") && !enabled.equals("false")) {
                throw new ConfigException(source + ".enabled: must be true or false");
            }
            request.put("Enabled", Boolean.parseBoolean(enabled));
        }
        Object types = m.get("functionResponseTypes");
        if (types != null) {
            var list = request.putArray("FunctionResponseTypes");
            if (!(types instanceof List<?> tl)) {
                throw new ConfigException(source + ".functionResponseTypes: must be a list");
            }
            tl.forEach(t -> list.add(String.valueOf(t)));
        }
        Object filters = m.get("filters");
        if (filters != null) {
            if (!(filters instanceof List<?> fl)) {
                throw new ConfigException(source + ".filters: must be a list of patterns (JSON text)");
            }
            var list = request.putObject("FilterCriteria").putArray("Filters");
            for (Object pattern : fl) {
                if (pattern instanceof Map<?, ?> || pattern instanceof List<?> || pattern == null) {
                    throw new ConfigException(source + ".filters: write each pattern as JSON text, e.g. '{\"body\": {\"kind\": [\"order\"]}}'");
                }
                list.addObject().put("Pattern", pattern.toString());
            }
        }
        return new DeclaredMapping(queue, request);
    }

    private static void integer(String source, Map<String, Object> m, String key, ObjectNode request, String field) {
        String v = text(source, m, key);
        if (v != null) {
            request.put(field, SettingValues.integer(source + "." + key, v));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(String source, Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> l)) {
            throw new ConfigException(source + " must be a list");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : l) {
            if (!(o instanceof Map<?, ?>)) {
                throw new ConfigException(source + ": each entry must be a mapping of keys to values");
            }
            out.add((Map<String, Object>) o);
        }
        return out;
    }

    private static String text(String source, Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            throw new ConfigException(source + "." + key + ": must be a single value");
        }
        return v.toString();
    }

    private static void check(String source, Map<String, Object> m, Set<String> allowed) {
        for (String key : m.keySet()) {
            if (!allowed.contains(key)) {
                throw new ConfigException(source + ": unknown key '" + key + "' (expected one of " + new java.util.TreeSet<>(allowed) + ")");
            }
        }
    }
}
