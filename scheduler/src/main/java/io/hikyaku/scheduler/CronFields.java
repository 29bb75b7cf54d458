package io.hikyaku.scheduler;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.BitSet;
import java.util.List;

/**
 * The six EventBridge cron fields (minutes, hours, day-of-month, month, day-of-week, year) as sets of allowed values.
 * Supported: {@code *}, {@code ?}, numbers, {@code a-b}, {@code a/b} and {@code a-b/c} steps, lists, month names
 * JAN-DEC, day names SUN-SAT (1 = Sunday). Exactly one of day-of-month and day-of-week is {@code ?}, as AWS
 * requires. Not supported (refused as invalid): {@code L}, {@code W} and {@code #}.
 */
public final class CronFields {

    private static final List<String> MONTHS = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");
    /** Searching stops this many days ahead (a year field can name at most 2199). */
    private static final int MAX_DAYS = 366 * 200;

    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth; // null = '?'
    private final BitSet months;
    private final BitSet daysOfWeek; // null = '?', 1 = Sunday
    private final BitSet years;

    private CronFields(BitSet minutes, BitSet hours, BitSet daysOfMonth, BitSet months, BitSet daysOfWeek, BitSet years) {
        this.minutes = minutes;
        this.hours = hours;
        this.daysOfMonth = daysOfMonth;
        this.months = months;
        this.daysOfWeek = daysOfWeek;
        this.years = years;
    }

    /** @return the fields, or null when the text is not a valid expression */
    static CronFields parse(String text) {
        String[] f = text.split(" ");
        if (f.length != 6) {
            return null;
        }
        boolean domAny = f[2].equals("?");
        boolean dowAny = f[4].equals("?");
        if (domAny == dowAny) {
            return null; // exactly one of the day fields is '?'
        }
        BitSet minutes = field(f[0], 0, 59, null);
        BitSet hours = field(f[1], 0, 23, null);
        BitSet dom = domAny ? null : field(f[2], 1, 31, null);
        BitSet months = field(f[3], 1, 12, MONTHS);
        BitSet dow = dowAny ? null : field(f[4], 1, 7, DAYS);
        BitSet years = field(f[5], 1970, 2199, null);
        if (minutes == null || hours == null || (!domAny && dom == null) || months == null || (!dowAny && dow == null)
                || years == null) {
            return null;
        }
        return new CronFields(minutes, hours, dom, months, dow, years);
    }

    private static BitSet field(String text, int min, int max, List<String> names) {
        BitSet out = new BitSet();
        for (String part : text.split(",", -1)) {
            int step = 1;
            String range = part;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                Integer s = number(part.substring(slash + 1), 1, max, null);
                if (s == null || s < 1) {
                    return null;
                }
                step = s;
                range = part.substring(0, slash);
            }
            int from;
            int to;
            if (range.equals("*")) {
                from = min;
                to = max;
            } else {
                int dash = range.indexOf('-', 1);
                Integer a = number(dash < 0 ? range : range.substring(0, dash), min, max, names);
                Integer b = dash < 0 ? (slash >= 0 ? Integer.valueOf(max) : a) : number(range.substring(dash + 1), min, max, names);
                if (a == null || b == null || b < a) {
                    return null;
                }
                from = a;
                to = b;
            }
            for (int v = from; v <= to; v += step) {
                out.set(v);
            }
        }
        return out;
    }

    private static Integer number(String text, int min, int max, List<String> names) {
        if (names != null && names.contains(text.toUpperCase(java.util.Locale.ROOT))) {
            return names.indexOf(text.toUpperCase(java.util.Locale.ROOT)) + min;
        }
        if (text.isEmpty() || text.length() > 4 || !text.chars().allMatch(Character::isDigit)) {
            return null;
        }
        int v = Integer.parseInt(text);
        return v < min || v > max ? null : v;
    }

    /**
     * The first matching wall time at or after {@code fromMillis} in {@code zone}, as epoch millis, or -1. A wall time
     * inside a spring-forward gap does not exist and is skipped; one repeated by a fall-back is taken at its first
     * occurrence only.
     */
    long next(long fromMillis, ZoneId zone) {
        ZonedDateTime from = Instant.ofEpochMilli(fromMillis).atZone(zone);
        LocalDate day = from.toLocalDate();
        for (int i = 0; i < MAX_DAYS; i++, day = day.plusDays(1)) {
            if (day.getYear() > 2199) {
                return -1;
            }
            if (!years.get(day.getYear()) || !months.get(day.getMonthValue()) || !dayMatches(day)) {
                continue;
            }
            for (int h = hours.nextSetBit(0); h >= 0; h = hours.nextSetBit(h + 1)) {
                for (int m = minutes.nextSetBit(0); m >= 0; m = minutes.nextSetBit(m + 1)) {
                    LocalDateTime wall = LocalDateTime.of(day, LocalTime.of(h, m));
                    if (zone.getRules().getValidOffsets(wall).isEmpty()) {
                        continue; // a spring-forward gap: this wall time does not exist
                    }
                    long t = wall.atZone(zone).withEarlierOffsetAtOverlap().toInstant().toEpochMilli();
                    if (t >= fromMillis) {
                        return t;
                    }
                }
            }
        }
        return -1;
    }

    private boolean dayMatches(LocalDate day) {
        if (daysOfMonth != null) {
            return daysOfMonth.get(day.getDayOfMonth());
        }
        int dow = day.getDayOfWeek().getValue() % 7 + 1; // Monday=1..Sunday=7 -> Sunday=1..Saturday=7
        return daysOfWeek.get(dow);
    }
}
