package io.hikyaku.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cost of one evaluation round of 1,000 alarms (500 single-metric on custom metrics with data, 250
 * on AWS/SQS queues, 250 metric-math backlog-per-worker alarms over 5 periods), as CPU time of the
 * evaluating thread. A round runs once a minute: under 600 ms of CPU per round is under 1% of a core.
 * Numbers for docs/benchmarks.md: {@code mvn -B -o -q -pl cloudwatch -am test -Dtest=AlarmEvaluationCostTest}.
 */
class AlarmEvaluationCostTest {

    @Test
    void thousandAlarmsCostWellUnderOnePercentOfACore() throws Exception {
        FakeClock clock = new FakeClock(1_800_000_000_000L - 1_800_000_000_000L % 60_000 + 1_000);
        CustomMetrics custom = new CustomMetrics(1000, 1000);
        MetricReader reader = new MetricReader(new MetricHistory(0), custom, clock);
        Alarms alarms = new Alarms(reader, clock, null, 5000, Alarms.INLINE);
        long minute = clock.millis / 60_000;
        for (int m = 0; m < 60; m++) {
            for (int i = 0; i < 100; i++) {
                custom.record("a", List.of(new CustomMetrics.Point(new MetricKey("App", "M" + i, List.of()), minute - m, 1, i, i, i, null),
                        new CustomMetrics.Point(new MetricKey("App", "W" + i, List.of()), minute - m, 1, 2, 2, 2, null)), minute);
            }
        }
        for (int i = 0; i < 500; i++) {
            alarms.put("a", "single-" + i, JsonCalls.JSON.readTree("{\"Namespace\":\"App\",\"MetricName\":\"M" + (i % 100)
                    + "\",\"Statistic\":\"Average\",\"Period\":60,\"EvaluationPeriods\":5,\"DatapointsToAlarm\":3,\"Threshold\":50,"
                    + "\"ComparisonOperator\":\"GreaterThanThreshold\"}"));
        }
        for (int i = 0; i < 250; i++) {
            alarms.put("a", "sqs-" + i, JsonCalls.JSON.readTree("{\"Namespace\":\"AWS/SQS\",\"MetricName\":\"ApproximateNumberOfMessagesVisible\","
                    + "\"Dimensions\":[{\"Name\":\"QueueName\",\"Value\":\"q" + i + "\"}],\"Statistic\":\"Maximum\",\"Period\":60,"
                    + "\"EvaluationPeriods\":1,\"Threshold\":0,\"ComparisonOperator\":\"GreaterThanThreshold\",\"TreatMissingData\":\"notBreaching\"}"));
        }
        for (int i = 0; i < 250; i++) {
            alarms.put("a", "math-" + i, JsonCalls.JSON.readTree("{\"EvaluationPeriods\":5,\"Threshold\":10,\"ComparisonOperator\":\"GreaterThanThreshold\","
                    + "\"Metrics\":[{\"Id\":\"m1\",\"ReturnData\":false,\"MetricStat\":{\"Metric\":{\"Namespace\":\"App\",\"MetricName\":\"M" + (i % 100)
                    + "\"},\"Period\":60,\"Stat\":\"Average\"}},{\"Id\":\"m2\",\"ReturnData\":false,\"MetricStat\":{\"Metric\":{\"Namespace\":\"App\","
                    + "\"MetricName\":\"W" + (i % 100) + "\"},\"Period\":60,\"Stat\":\"Average\"}},{\"Id\":\"e1\",\"Expression\":\"m1 / m2\"}]}"));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        long total = 0;
        int rounds = 20;
        for (int r = 0; r < rounds; r++) {
            clock.advanceSeconds(60);
            long cpu = threads.getCurrentThreadCpuTime();
            assertThat(alarms.evaluateDue()).isTrue();
            long used = threads.getCurrentThreadCpuTime() - cpu;
            if (r >= 5) { // after warm-up
                best = Math.min(best, used);
                total += used;
            }
        }
        double meanMillis = total / 1e6 / (rounds - 5);
        System.out.printf("1000 alarms: CPU per evaluation round mean %.1f ms, best %.1f ms (%.3f%% / %.3f%% of a core at one round a minute)%n",
                meanMillis, best / 1e6, meanMillis / 600, best / 1e6 / 600);
        assertThat(meanMillis).as("CPU ms per round").isLessThan(600);
        assertThat(alarms.size()).isEqualTo(1000);
    }
}
