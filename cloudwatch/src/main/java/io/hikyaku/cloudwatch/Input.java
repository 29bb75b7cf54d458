package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Reads request parameters from the decoded input tree, whichever protocol it came in: RPC v2 CBOR
 * gives numbers and epoch-second timestamps, Query gives text for everything.
 */
final class Input {

    private Input() {}

    static JsonNode get(JsonNode in, String field) {
        JsonNode v = in == null ? null : in.get(field);
        return v == null || v.isNull() ? MissingNode.getInstance() : v;
    }

    static String text(JsonNode in, String field) {
        JsonNode v = get(in, field);
        return v.isMissingNode() ? null : v.asText();
    }

    static String required(JsonNode in, String field, String path) {
        String v = text(in, field);
        if (v == null) {
            throw CloudWatchException.missing(path);
        }
        return v;
    }

    /** A list parameter (an array, or absent: empty). */
    static JsonNode list(JsonNode in, String field, String path) {
        JsonNode v = get(in, field);
        if (v.isMissingNode()) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        }
        if (!v.isArray()) {
            throw CloudWatchException.invalidValue("The parameter " + path + " must be a list.");
        }
        return v;
    }

    static long integer(JsonNode in, String field, String path, boolean required) {
        JsonNode v = get(in, field);
        if (v.isMissingNode()) {
            if (required) {
                throw CloudWatchException.missing(path);
            }
            return Long.MIN_VALUE;
        }
        if (v.isIntegralNumber()) {
            return v.asLong();
        }
        try {
            return Long.parseLong(v.asText().trim());
        } catch (NumberFormatException e) {
            throw CloudWatchException.invalidValue("The value " + v.asText() + " for parameter " + path + " is not a valid integer.");
        }
    }

    /** A timestamp: epoch seconds (CBOR tag 1 or a number) or ISO 8601 text (Query). */
    static Instant time(JsonNode in, String field, String path) {
        JsonNode v = get(in, field);
        if (v.isMissingNode()) {
            throw CloudWatchException.missing(path);
        }
        if (v.isNumber()) {
            return Instant.ofEpochMilli(Math.round(v.asDouble() * 1000));
        }
        String s = v.asText().trim();
        try {
            return Instant.ofEpochMilli(Math.round(Double.parseDouble(s) * 1000));
        } catch (NumberFormatException notNumeric) {
            try {
                return OffsetDateTime.parse(s).toInstant();
            } catch (DateTimeParseException e) {
                try {
                    return Instant.parse(s + "Z");
                } catch (DateTimeParseException e2) {
                    throw CloudWatchException.invalidValue("The value " + s + " for parameter " + path + " is not a valid timestamp.");
                }
            }
        }
    }
}
