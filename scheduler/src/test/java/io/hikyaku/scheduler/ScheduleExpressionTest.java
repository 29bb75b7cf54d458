package io.hikyaku.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The accept/reject list recorded from AWS (reference part 3.2), and the fire-time math on fixed instants. */
class ScheduleExpressionTest {

    @ParameterizedTest
    @ValueSource(strings = {"at(2021-12-31T23:59:59)", "rate(1 minute)", "rate(5 minutes)", "rate(1 hour)",
        "rate(2 days)", "cron(0-15/1 8-8 ? * 2,3,4,5,6,7 *)", "cron(*/15 * * * ? *)", "cron(0 9 3 1 ? 2027)",
        "cron(0 12 ? * MON-FRI *)"})
    void awsAccepts(String expression) throws SchedulerException {
        assertThat(ScheduleExpression.parse(expression)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"at(2021-12-31T23:59:59Z)", "at(2021-12-31)", "rate(10 seconds)", "rate(10 years)",
        "rate(10)", "rate(-10 minutes)", "rate( 10 minutes )", " rate(10 minutes)", "cron(0 1 * * * *)",
        "cron(71 8 1 * ? *)", "cron(7 20 * * NOT *)", "every 5 minutes", "at(2021-02-30T00:00:00)"})
    void awsRejects(String expression) {
        assertThatThrownBy(() -> ScheduleExpression.parse(expression)).isInstanceOf(SchedulerException.class)
                .hasMessage("Invalid Schedule Expression " + expression + ".")
                .satisfies(e -> assertThat(((SchedulerException) e).type()).isEqualTo("ValidationException"));
    }

    private static long millis(String utc) {
        return LocalDateTime.parse(utc).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    @Test
    void atIsEvaluatedInItsTimeZoneAndFiresOnce() throws SchedulerException {
        ScheduleExpression at = ScheduleExpression.parse("at(2027-01-03T09:00:00)");
        long t = at.nextAfter(Long.MIN_VALUE + 1, Long.MIN_VALUE, ZoneId.of("Europe/Berlin"));
        assertThat(Instant.ofEpochMilli(t)).isEqualTo(Instant.parse("2027-01-03T08:00:00Z"));
        assertThat(at.nextAfter(t, Long.MIN_VALUE, ZoneId.of("Europe/Berlin"))).isEqualTo(-1);
    }

    @Test
    void rateStartsAtItsStartAndSteps() throws SchedulerException {
        ScheduleExpression rate = ScheduleExpression.parse("rate(5 minutes)");
        long start = millis("2027-01-01T00:00:00");
        assertThat(rate.nextAfter(Long.MIN_VALUE + 1, start, ZoneOffset.UTC)).isEqualTo(start);
        assertThat(rate.nextAfter(start, start, ZoneOffset.UTC)).isEqualTo(start + 300_000);
        assertThat(rate.nextAfter(start + 1, start, ZoneOffset.UTC)).isEqualTo(start + 300_000);
    }

    @Test
    void cronInASpringForwardGapIsSkipped() throws SchedulerException {
        // Europe/Berlin 2027-03-28: 02:00 -> 03:00. 02:30 does not exist that day.
        ScheduleExpression cron = ScheduleExpression.parse("cron(30 2 * * ? *)");
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        long t = cron.nextAfter(millis("2027-03-27T12:00:00"), Long.MIN_VALUE, berlin);
        assertThat(Instant.ofEpochMilli(t)).isEqualTo(Instant.parse("2027-03-29T00:30:00Z"));
    }

    @Test
    void cronInAFallBackRepeatFiresOnceAtTheFirstOccurrence() throws SchedulerException {
        // Europe/Berlin 2027-10-31: 03:00 -> 02:00. 02:30 happens at 00:30Z and again at 01:30Z.
        ScheduleExpression cron = ScheduleExpression.parse("cron(30 2 * * ? *)");
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        long first = cron.nextAfter(millis("2027-10-30T12:00:00"), Long.MIN_VALUE, berlin);
        assertThat(Instant.ofEpochMilli(first)).isEqualTo(Instant.parse("2027-10-31T00:30:00Z"));
        long second = cron.nextAfter(first, Long.MIN_VALUE, berlin);
        assertThat(Instant.ofEpochMilli(second)).isEqualTo(Instant.parse("2027-11-01T01:30:00Z"));
    }

    @Test
    void atInAGapNeverFires() throws SchedulerException {
        ScheduleExpression at = ScheduleExpression.parse("at(2027-03-28T02:30:00)");
        assertThat(at.nextAfter(Long.MIN_VALUE + 1, Long.MIN_VALUE, ZoneId.of("Europe/Berlin"))).isEqualTo(-1);
    }

    @Test
    void cronWeekdaysAndSteps() throws SchedulerException {
        ScheduleExpression cron = ScheduleExpression.parse("cron(*/15 9 ? * MON *)");
        long t = cron.nextAfter(millis("2027-01-01T00:00:00"), Long.MIN_VALUE, ZoneOffset.UTC); // a Friday
        assertThat(Instant.ofEpochMilli(t)).isEqualTo(Instant.parse("2027-01-04T09:00:00Z"));
        assertThat(Instant.ofEpochMilli(cron.nextAfter(t, Long.MIN_VALUE, ZoneOffset.UTC)))
                .isEqualTo(Instant.parse("2027-01-04T09:15:00Z"));
    }
}
