package io.hikyaku.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SQS tag quotas (developer guide, cost allocation tags): at most 50 tags per queue, keys of
 * 1..128 characters not starting with the reserved {@code aws:} prefix, values of 0..256 characters.
 * Lengths count Unicode characters (code points), not UTF-16 units.
 */
final class TagRules {

    static final int MAX_TAGS = 50;
    static final int MAX_KEY = 128;
    static final int MAX_VALUE = 256;
    static final String KEY_LENGTH = "Tag keys must be between 1 and 128 characters in length.";

    private TagRules() {}

    /** Checks each tag of a request; a JSON null value reads as an empty value. */
    static Map<String, String> check(Map<String, String> tags) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : tags.entrySet()) {
            String key = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue();
            int keyLength = key.codePointCount(0, key.length());
            if (keyLength == 0 || keyLength > MAX_KEY) {
                throw Errors.invalidValue("TagKey", key, KEY_LENGTH);
            }
            if (key.regionMatches(true, 0, "aws:", 0, 4)) {
                throw Errors.invalidValue("TagKey", key, "The prefix aws: is reserved for AWS use.");
            }
            if (value.codePointCount(0, value.length()) > MAX_VALUE) {
                throw Errors.invalidValue("TagValue", value, "Tag values must be at most 256 characters in length.");
            }
            out.put(key, value);
        }
        return out;
    }

    /** Refuses a queue that would hold more than 50 tags after adding {@code added} to {@code existing}. */
    static void checkCount(String queueName, Map<String, String> existing, Map<String, String> added) {
        int total = existing.size();
        for (String key : added.keySet()) {
            if (!existing.containsKey(key)) {
                total++;
            }
        }
        if (total > MAX_TAGS) {
            throw Errors.invalidParameter("Too many tags added for queue " + queueName + "."); // sqs-behaviours 91
        }
    }
}
