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
        Instant utc = utcSeconds(s);
        if (utc != null) {
            return utc;
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

    /** Fast path for the form requests carry, {@code 2026-12-05T12:00:00Z}; null for anything else. */
    private static Instant utcSeconds(String s) {
        if (s.length() != 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':' || s.charAt(19) != 'Z') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 7);
        int day = digits(s, 8, 10);
        int hour = digits(s, 11, 13);
        int minute = digits(s, 14, 16);
        int second = digits(s, 17, 19);
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return null;
        }
        return LocalDateTime.of(year, month, day, hour, minute, second).toInstant(ZoneOffset.UTC);
    }

    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
