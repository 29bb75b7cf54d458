package io.hikyaku.cloudwatch;

import java.util.List;

/**
 * What decides an alarm's state: the comparison of each datapoint with the threshold, how many of the
 * last {@code evaluationPeriods} must breach ({@code datapointsToAlarm}), and how missing datapoints
 * count ({@code treatMissingData}: missing, notBreaching, breaching or ignore).
 */
record AlarmRule(String comparisonOperator, double threshold, int evaluationPeriods, int datapointsToAlarm, String treatMissingData) {

    /** The operators served (the anomaly-detection band operators are not). */
    static final List<String> OPERATORS = List.of("GreaterThanOrEqualToThreshold", "GreaterThanThreshold", "LessThanThreshold",
            "LessThanOrEqualToThreshold");
    static final List<String> BAND_OPERATORS = List.of("LessThanLowerOrGreaterThanUpperThreshold", "LessThanLowerThreshold",
            "GreaterThanUpperThreshold");
    static final List<String> MISSING = List.of("missing", "notBreaching", "breaching", "ignore");

    boolean breaches(double v) {
        return switch (comparisonOperator) {
            case "GreaterThanOrEqualToThreshold" -> v >= threshold;
            case "GreaterThanThreshold" -> v > threshold;
            case "LessThanThreshold" -> v < threshold;
            case "LessThanOrEqualToThreshold" -> v <= threshold;
            default -> throw new IllegalStateException(comparisonOperator);
        };
    }

    /** "greater than or equal to" ... as CloudWatch's state reasons say it. */
    String phrase() {
        return switch (comparisonOperator) {
            case "GreaterThanOrEqualToThreshold" -> "greater than or equal to";
            case "GreaterThanThreshold" -> "greater than";
            case "LessThanThreshold" -> "less than";
            case "LessThanOrEqualToThreshold" -> "less than or equal to";
            default -> comparisonOperator;
        };
    }
}
