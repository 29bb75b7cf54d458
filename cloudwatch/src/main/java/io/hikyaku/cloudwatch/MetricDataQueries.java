package io.hikyaku.cloudwatch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A list of MetricDataQuery (GetMetricData's, or a metric-math alarm's Metrics) run over a time
 * range: MetricStat queries read the kept datapoints, Expression queries are parsed
 * ({@link MathParser}) and evaluated ({@link MathEvaluator}) on demand, so that an expression may use
 * another expression's Id (a cycle is a ValidationError).
 */
final class MetricDataQueries {

    private static final Pattern QUERY_ID = Pattern.compile("[a-z][a-zA-Z0-9_]*");

    /** One answered series: the query's Id and label, its points, whether it is returned. */
    record Result(String id, String label, MathSeries series, boolean returnData) {}

    /** A checked query: a MetricStat's source and statistic, or an expression's tree. */
    private record Query(String id, String label, boolean returnData, MetricReader.Source source, String statistic,
                         long periodSeconds, MathNode expression, String metricName) {}

    private final List<Query> queries = new ArrayList<>();

    private MetricDataQueries() {}

    /** Checks the queries (Ids unique and well formed, exactly one of MetricStat and Expression each) and parses expressions. */
    static MetricDataQueries parse(MetricReader reader, String accountId, JsonNode list, String listPath) {
        MetricDataQueries out = new MetricDataQueries();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode q = list.get(i);
            String path = listPath + ".member." + (i + 1);
            String id = Input.required(q, "Id", path + ".Id");
            if (!QUERY_ID.matcher(id).matches() || id.length() > 255) {
                throw CloudWatchException.invalidValue("The value " + id + " for parameter " + path
                        + ".Id is not valid. It must start with a lowercase letter and contain only letters, numbers and underscores.");
            }
            if (!ids.add(id)) {
                throw CloudWatchException.invalidValue("The value " + id + " for parameter " + path + ".Id is not unique.");
            }
            boolean hasStat = !Input.get(q, "MetricStat").isMissingNode();
            String expression = Input.text(q, "Expression");
            if (hasStat == (expression != null)) {
                throw CloudWatchException.combination("Exactly one of MetricStat and Expression must be set in " + path + ".");
            }
            String returnData = Input.text(q, "ReturnData");
            boolean returned = returnData == null || !returnData.equals("false");
            String label = Input.text(q, "Label");
            long period = Input.integer(q, "Period", path + ".Period", false);
            if (hasStat) {
                JsonNode stat = Input.get(q, "MetricStat");
                JsonNode metric = Input.get(stat, "Metric");
                if (metric.isMissingNode()) {
                    throw CloudWatchException.missing(path + ".MetricStat.Metric");
                }
                String metricName = Input.required(metric, "MetricName", path + ".MetricStat.Metric.MetricName");
                String namespace = Input.text(metric, "Namespace");
                long statPeriod = Input.integer(stat, "Period", path + ".MetricStat.Period", true);
                String statistic = Input.required(stat, "Stat", path + ".MetricStat.Stat");
                Periods.check(statPeriod, path + ".MetricStat.Period");
                if (!CloudWatchApi.STATISTICS.contains(statistic)) {
                    throw CloudWatchException.invalidValue("The value " + statistic + " for parameter " + path
                            + ".MetricStat.Stat is not supported: use SampleCount, Average, Sum, Minimum or Maximum.");
                }
                String unit = MetricUnits.check(Input.text(stat, "Unit"), path + ".MetricStat.Unit");
                MetricReader.Source source = reader.find(accountId, namespace, metricName, Input.get(metric, "Dimensions"),
                        path + ".MetricStat.Metric.Dimensions", unit);
                out.queries.add(new Query(id, label, returned, source, statistic, statPeriod, null, metricName));
            } else {
                if (period != Long.MIN_VALUE) {
                    Periods.check(period, path + ".Period");
                }
                out.queries.add(new Query(id, label, returned, null, null, period == Long.MIN_VALUE ? 0 : period,
                        MathParser.parse(expression, id), null));
            }
        }
        return out;
    }

    int size() {
        return queries.size();
    }

    /** How many queries return data. */
    int returned() {
        return (int) queries.stream().filter(Query::returnData).count();
    }

    /** Whether some query is an expression. */
    boolean hasExpression() {
        return queries.stream().anyMatch(q -> q.expression() != null);
    }

    /** Runs every query over minutes [from, to); answers the returned ones, in request order. */
    List<Result> run(MetricReader reader, long fromMinute, long toMinute) {
        Map<String, MathEvaluator.Value> values = new HashMap<>();
        Map<String, Query> byId = new LinkedHashMap<>();
        List<Map.Entry<String, MathSeries>> metrics = new ArrayList<>();
        long smallestPeriod = Long.MAX_VALUE;
        for (Query q : queries) {
            byId.put(q.id(), q);
            if (q.expression() == null) {
                long minutes = Periods.minutes(q.periodSeconds());
                TreeMap<Long, Double> points = reader.series(q.source(), q.statistic(), minutes, fromMinute, toMinute);
                MathSeries s = new MathSeries(q.label() != null ? q.label() : q.metricName(), minutes * 60, points);
                values.put(q.id(), new MathEvaluator.Series(s));
                metrics.add(new AbstractMap.SimpleImmutableEntry<>(q.id(), s));
                smallestPeriod = Math.min(smallestPeriod, minutes * 60);
            }
        }
        long gridPeriod = smallestPeriod == Long.MAX_VALUE ? 60 : smallestPeriod;
        Set<String> evaluating = new HashSet<>();
        MathEvaluator.Context context = new MathEvaluator.Context() {
            @Override public MathEvaluator.Value reference(String id) {
                MathEvaluator.Value v = values.get(id);
                if (v != null) {
                    return v;
                }
                Query q = byId.get(id);
                if (q == null) {
                    return null;
                }
                if (!evaluating.add(id)) {
                    throw CloudWatchException.validation("Error in expression " + id + ": the expressions refer to each other in a cycle.");
                }
                v = new MathEvaluator(id, this).evaluate(q.expression());
                evaluating.remove(id);
                values.put(id, v);
                return v;
            }

            @Override public List<Map.Entry<String, MathSeries>> metrics() {
                return metrics;
            }

            @Override public long startSecond() {
                return fromMinute * 60;
            }

            @Override public long endSecond() {
                return toMinute * 60;
            }
        };
        List<Result> results = new ArrayList<>();
        for (Query q : queries) {
            MathEvaluator.Value v = context.reference(q.id());
            if (!q.returnData()) {
                continue;
            }
            String label = q.label() != null ? q.label() : q.id();
            if (v instanceof MathEvaluator.Series s) {
                results.add(new Result(q.id(), q.expression() == null ? s.series().label() : label, s.series(), true));
            } else if (v instanceof MathEvaluator.Many m) {
                for (MathSeries s : m.series()) {
                    results.add(new Result(q.id(), s.label() != null ? s.label() : label, s, true));
                }
            } else if (v instanceof MathEvaluator.Scalar x) {
                long period = q.periodSeconds() > 0 ? q.periodSeconds() : gridPeriod;
                TreeMap<Long, Double> points = new TreeMap<>();
                if (Double.isFinite(x.value())) {
                    long now = MetricSampler.minuteOf(reader.clock().millis()) * 60;
                    for (long t = fromMinute * 60; t < toMinute * 60 && t <= now; t += period) {
                        points.put(t, x.value());
                    }
                }
                results.add(new Result(q.id(), label, new MathSeries(label, period, points), true));
            } else {
                throw CloudWatchException.validation("Error in expression " + q.id() + ": the expression does not give a number or time series.");
            }
        }
        return results;
    }
}
