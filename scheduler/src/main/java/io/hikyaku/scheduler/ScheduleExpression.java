package io.hikyaku.scheduler;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.ResolverStyle;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code at(yyyy-mm-ddThh:mm:ss)}, {@code rate(N unit)} or {@code cron(min hour dom month dow year)}, validated as
 * AWS does (reference part 3.2), and the next fire time after a given instant in the schedule's time zone.
 * Daylight saving: a wall time in a spring-forward gap is skipped (nothing fires for it); a wall time repeated by a
 * fall-back fires once, at its first (earlier-offset) occurrence.
 */
public sealed interface ScheduleExpression {

    Pattern AT = Pattern.compile("at\\((\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2})\\)");
    Pattern RATE = Pattern.compile("rate\\(([1-9][0-9]{0,8}) (minute|minutes|hour|hours|day|days)\\)");
    Pattern CRON = Pattern.compile("cron\\((\\S+(?: \\S+){5})\\)");
    DateTimeFormatter AT_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);

    static ScheduleExpression parse(String text) throws SchedulerException {
        if (text == null || text.isEmpty() || text.length() > 256) {
            throw invalid(text);
        }
        Matcher m = AT.matcher(text);
        if (m.matches()) {
            try {
                return new At(LocalDateTime.parse(m.group(1), AT_FORMAT));
            } catch (DateTimeException e) {
                throw invalid(text);
            }
        }
        m = RATE.matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2);
            if (n == 1 ? unit.endsWith("s") : !unit.endsWith("s")) {
                throw invalid(text); // EventBridge: "1 minute", "5 minutes"
            }
            Duration one = unit.startsWith("minute") ? Duration.ofMinutes(1) : unit.startsWith("hour") ? Duration.ofHours(1)
                    : Duration.ofDays(1);
            return new Rate(one.multipliedBy(n));
        }
        m = CRON.matcher(text);
        if (m.matches()) {
            CronFields fields = CronFields.parse(m.group(1));
            if (fields == null) {
                throw invalid(text);
            }
            return new Cron(fields);
        }
        throw invalid(text);
    }

    static SchedulerException invalid(String text) {
        return SchedulerException.validation("Invalid Schedule Expression " + text + ".");
    }

    /**
     * The first fire time strictly after {@code afterMillis} and not before {@code fromMillis}, or -1 when there is
     * none (a one-time schedule already past or fired).
     */
    long nextAfter(long afterMillis, long fromMillis, ZoneId zone);

    record At(LocalDateTime when) implements ScheduleExpression {
        @Override
        public long nextAfter(long afterMillis, long fromMillis, ZoneId zone) {
            if (zone.getRules().getValidOffsets(when).isEmpty()) {
                return -1; // in a spring-forward gap: skipped
            }
            long t = when.atZone(zone).withEarlierOffsetAtOverlap().toInstant().toEpochMilli();
            return t > afterMillis ? t : -1;
        }
    }

    /** Every {@code period} from {@code fromMillis} (the StartDate, else the creation time: the first run is then immediate). */
    record Rate(Duration period) implements ScheduleExpression {
        @Override
        public long nextAfter(long afterMillis, long fromMillis, ZoneId zone) {
            long p = period.toMillis();
            if (afterMillis < fromMillis) {
                return fromMillis;
            }
            long k = (afterMillis - fromMillis) / p + 1;
            return fromMillis + k * p;
        }
    }

    record Cron(CronFields fields) implements ScheduleExpression {
        @Override
        public long nextAfter(long afterMillis, long fromMillis, ZoneId zone) {
            long floor = Math.max(afterMillis + 1, fromMillis);
            return fields.next(floor, zone);
        }
    }
}
