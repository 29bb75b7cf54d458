package io.hikyaku.policy;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** The date forms Date* conditions accept: ISO 8601 (date, date-time, with or without offset; UTC if none) or epoch seconds. */
final class PolicyDates {
    private PolicyDates() {}

    /** The instant, or null if the text is no date. */
    static Instant parse(String text) {
        String s = text.trim();
        if (s.isEmpty()) {
            return null;
        }
        if (s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            if (s.length() > 12) {
                return null;
            }
            return Instant.ofEpochSecond(Long.parseLong(s));
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException ignored) {
            // next form
        }
        try {
            return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            // next form
        }
        try {
            return LocalDate.parse(s).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            return null;
        }
    }
}
