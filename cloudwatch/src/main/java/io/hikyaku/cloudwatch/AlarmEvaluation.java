package io.hikyaku.cloudwatch;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides an alarm's state from the datapoints of its last N periods, as CloudWatch documents it
 * (M out of N; missing datapoints treated per TreatMissingData). Deterministic: a pure function of the
 * rule, the datapoints and the current state, so it is tested on its own with no clock.
 *
 * <ul>
 *   <li>breaching / notBreaching: a missing datapoint counts as breaching / not breaching;</li>
 *   <li>missing: only present datapoints count, and when fewer than M are present all of them must
 *       breach (so "- - X" alarms at 3 of 3); none present is INSUFFICIENT_DATA;</li>
 *   <li>ignore: as missing, but none present keeps the current state.</li>
 * </ul>
 */
final class AlarmEvaluation {

    static final String OK = "OK";
    static final String ALARM = "ALARM";
    static final String INSUFFICIENT_DATA = "INSUFFICIENT_DATA";
    private static final DateTimeFormatter REASON_TIME = DateTimeFormatter.ofPattern("dd/MM/yy HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** The decided state; {@code reason} is what StateReason says when the state changes. */
    record Outcome(String state, String reason, List<Integer> evaluated) {}

    private AlarmEvaluation() {}

    /**
     * @param values datapoints of the N periods, oldest first (null = missing)
     * @param starts the periods' start, epoch seconds, same order
     * @param current the alarm's state now
     */
    static Outcome evaluate(AlarmRule rule, Double[] values, long[] starts, String current) {
        int n = values.length;
        String treat = rule.treatMissingData();
        int present = 0;
        int breaching = 0;
        List<Integer> evaluated = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            Double v = values[i];
            if (v == null) {
                if (treat.equals("breaching")) {
                    present++;
                    breaching++;
                } else if (treat.equals("notBreaching")) {
                    present++;
                }
                continue;
            }
            present++;
            evaluated.add(i);
            if (rule.breaches(v)) {
                breaching++;
            }
        }
        if (present == 0) {
            if (treat.equals("ignore")) {
                return new Outcome(current, null, evaluated);
            }
            return new Outcome(INSUFFICIENT_DATA, "Insufficient Data: " + n + (n == 1 ? " datapoint was" : " datapoints were") + " unknown.",
                    evaluated);
        }
        boolean onlyPresent = treat.equals("missing") || treat.equals("ignore");
        int needed = onlyPresent ? Math.min(rule.datapointsToAlarm(), present) : rule.datapointsToAlarm();
        String state = breaching >= needed ? ALARM : OK;
        return new Outcome(state, reason(rule, values, starts, evaluated, state, current, breaching, present), evaluated);
    }

    private static String reason(AlarmRule rule, Double[] values, long[] starts, List<Integer> evaluated, String state, String current,
                                 int breaching, int present) {
        StringBuilder points = new StringBuilder("[");
        for (int k = 0; k < evaluated.size(); k++) {
            int i = evaluated.get(k);
            points.append(k == 0 ? "" : ", ").append(values[i]).append(" (").append(REASON_TIME.format(Instant.ofEpochSecond(starts[i]))).append(')');
        }
        points.append(']');
        int n = values.length;
        String threshold = Double.toString(rule.threshold());
        if (state.equals(ALARM)) {
            return "Threshold Crossed: " + breaching + " out of the last " + n + " datapoints " + points + " was " + rule.phrase()
                    + " the threshold (" + threshold + ") (minimum " + rule.datapointsToAlarm() + " datapoint"
                    + (rule.datapointsToAlarm() == 1 ? "" : "s") + " for " + current + " -> ALARM transition).";
        }
        return "Threshold Crossed: " + (present - breaching) + " out of the last " + n + " datapoints " + points + " was not " + rule.phrase()
                + " the threshold (" + threshold + ") (minimum " + (n - rule.datapointsToAlarm() + 1) + " datapoint"
                + (n - rule.datapointsToAlarm() + 1 == 1 ? "" : "s") + " for " + current + " -> OK transition).";
    }
}
