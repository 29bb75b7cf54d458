package io.hikyaku.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The state decision alone: M out of N and each TreatMissingData, as CloudWatch's documented table has them. */
class AlarmEvaluationTest {

    private static final long[] STARTS = {1_800_000_000L, 1_800_000_060L, 1_800_000_120L};

    private static String state(String treat, int m, String current, Double... values) {
        AlarmRule rule = new AlarmRule("GreaterThanThreshold", 1.0, values.length, m, treat);
        return AlarmEvaluation.evaluate(rule, values, STARTS, current).state();
    }

    private static final Double X = 5.0; // breaching
    private static final Double O = 0.0; // not breaching
    private static final Double M = null; // missing

    @Test
    void mOutOfN() {
        assertThat(state("missing", 3, "OK", X, X, X)).isEqualTo("ALARM");
        assertThat(state("missing", 3, "OK", O, X, X)).isEqualTo("OK");
        assertThat(state("missing", 2, "OK", O, X, X)).isEqualTo("ALARM");
        assertThat(state("missing", 2, "OK", X, O, O)).isEqualTo("OK");
        assertThat(state("missing", 1, "ALARM", O, O, O)).isEqualTo("OK");
    }

    @Test
    void missingDataTreatments() {
        // all missing
        assertThat(state("missing", 3, "OK", M, M, M)).isEqualTo("INSUFFICIENT_DATA");
        assertThat(state("ignore", 3, "ALARM", M, M, M)).isEqualTo("ALARM");
        assertThat(state("ignore", 3, "OK", M, M, M)).isEqualTo("OK");
        assertThat(state("breaching", 3, "OK", M, M, M)).isEqualTo("ALARM");
        assertThat(state("notBreaching", 3, "ALARM", M, M, M)).isEqualTo("OK");
        // one breaching present, the rest missing (3 of 3)
        assertThat(state("missing", 3, "OK", M, M, X)).isEqualTo("ALARM");
        assertThat(state("ignore", 3, "OK", M, M, X)).isEqualTo("ALARM");
        assertThat(state("breaching", 3, "OK", M, M, X)).isEqualTo("ALARM");
        assertThat(state("notBreaching", 3, "OK", M, M, X)).isEqualTo("OK");
        // a gap between a good and a bad point
        assertThat(state("missing", 3, "OK", O, M, X)).isEqualTo("OK");
        assertThat(state("breaching", 3, "OK", O, M, X)).isEqualTo("OK");
        assertThat(state("breaching", 2, "OK", O, M, X)).isEqualTo("ALARM");
        assertThat(state("notBreaching", 2, "OK", X, M, X)).isEqualTo("ALARM");
        assertThat(state("notBreaching", 2, "OK", M, M, X)).isEqualTo("OK");
    }

    @Test
    void reasonsNameTheDatapointsAndTheThreshold() {
        AlarmRule rule = new AlarmRule("GreaterThanOrEqualToThreshold", 1.0, 1, 1, "missing");
        AlarmEvaluation.Outcome alarm = AlarmEvaluation.evaluate(rule, new Double[] {3.0}, new long[] {1_800_000_000L}, "OK");
        assertThat(alarm.reason()).isEqualTo("Threshold Crossed: 1 out of the last 1 datapoints [3.0 (15/01/27 08:00:00)] was greater than "
                + "or equal to the threshold (1.0) (minimum 1 datapoint for OK -> ALARM transition).");
        AlarmEvaluation.Outcome ok = AlarmEvaluation.evaluate(rule, new Double[] {0.0}, new long[] {1_800_000_000L}, "ALARM");
        assertThat(ok.reason()).isEqualTo("Threshold Crossed: 1 out of the last 1 datapoints [0.0 (15/01/27 08:00:00)] was not greater than "
                + "or equal to the threshold (1.0) (minimum 1 datapoint for ALARM -> OK transition).");
        AlarmEvaluation.Outcome none = AlarmEvaluation.evaluate(rule, new Double[] {null}, new long[] {1_800_000_000L}, "OK");
        assertThat(none.reason()).isEqualTo("Insufficient Data: 1 datapoint was unknown.");
    }
}
