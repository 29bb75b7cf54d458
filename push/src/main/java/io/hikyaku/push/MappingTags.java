package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Tags of an event source mapping, with Lambda's limits: at most 50 per resource, keys of 1-128 and values
 * of 0-256 characters, keys not starting with {@code aws:} (reserved for AWS).
 */
final class MappingTags {

    static final int MAX_TAGS = 50;
    static final int MAX_KEY = 128;
    static final int MAX_VALUE = 256;

    private MappingTags() {}

    /** {@code existing} with the tags of {@code json} (a map of strings; null or absent adds nothing). */
    static Map<String, String> parse(JsonNode json, Map<String, String> existing) {
        Map<String, String> out = new LinkedHashMap<>(existing);
        if (json == null || json.isNull()) {
            return out;
        }
        if (!json.isObject()) {
            throw MappingParameters.badContent("Tags must be a map of strings");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            if (!e.getValue().isTextual()) {
                throw MappingParameters.badContent("the value of tag " + key + " must be a string");
            }
            String value = e.getValue().asText();
            if (key.isEmpty() || key.length() > MAX_KEY || value.length() > MAX_VALUE) {
                throw LambdaException.invalidParameter("Tag keys must be 1-" + MAX_KEY + " characters and values at most "
                        + MAX_VALUE + " characters.");
            }
            if (key.regionMatches(true, 0, "aws:", 0, 4)) {
                throw LambdaException.invalidParameter("Tag keys starting with 'aws:' are reserved.");
            }
            out.put(key, value);
        }
        if (out.size() > MAX_TAGS) {
            throw LambdaException.invalidParameter("Number of tags exceeds resource tag limit of " + MAX_TAGS + ".");
        }
        return out;
    }
}
