package io.hikyaku.cloudwatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;
import java.util.function.Function;

/**
 * Evaluates a parsed metric math expression over the request's time series, as CloudWatch does:
 * operators between two series apply at the timestamps both have (a timestamp missing in either is
 * missing in the result: FILL fills it); a result that is not finite (x / 0) is no datapoint;
 * SUM/AVG/MIN/MAX of one series are a number, of an array the per-timestamp series; IF keeps or
 * drops each timestamp of its condition; METRICS() is every MetricStat query of the request.
 * Deterministic: reads nothing but its inputs.
 */
final class MathEvaluator {

    /** What an expression evaluates to. */
    sealed interface Value {}

    record Scalar(double value) implements Value {}

    record Series(MathSeries series) implements Value {}

    record Many(List<MathSeries> series) implements Value {}

    record Text(String value) implements Value {}

    record Keyword(String name) implements Value {}

    /** What an expression sees: other queries' results, the metric queries in order, the time grid. */
    interface Context {
        /** The value of the query with that Id (evaluated on demand), or null when there is none. */
        Value reference(String id);

        /** The MetricStat queries' series, in request order, with their Ids. */
        List<Map.Entry<String, MathSeries>> metrics();

        /** The first period start (epoch seconds) and the end (exclusive) of the requested range. */
        long startSecond();

        long endSecond();
    }

    private final String id;
    private final Context context;

    MathEvaluator(String id, Context context) {
        this.id = id;
        this.context = context;
    }

    private CloudWatchException error(String what) {
        return CloudWatchException.validation("Error in expression " + id + ": " + what + ".");
    }

    Value evaluate(MathNode node) {
        if (node instanceof MathNode.Number n) {
            return new Scalar(n.value());
        }
        if (node instanceof MathNode.Text t) {
            return new Text(t.value());
        }
        if (node instanceof MathNode.Keyword k) {
            return new Keyword(k.name());
        }
        if (node instanceof MathNode.Reference r) {
            Value v = context.reference(r.id());
            if (v == null) {
                throw error("Unknown metric or expression id " + r.id());
            }
            return v;
        }
        if (node instanceof MathNode.Array a) {
                List<MathSeries> all = new ArrayList<>();
                for (MathNode item : a.items()) {
                    Value v = evaluate(item);
                    if (v instanceof Series s) {
                        all.add(s.series());
                    } else if (v instanceof Many m) {
                        all.addAll(m.series());
                    } else {
                        throw error("An array must hold time series only");
                    }
                }
                return new Many(all);
        }
        if (node instanceof MathNode.Unary u) {
            return u.op().equals("-")
                    ? map(evaluate(u.operand()), x -> -x)
                    : map(evaluate(u.operand()), x -> x == 0 ? 1 : 0);
        }
        if (node instanceof MathNode.Binary b) {
            return binary(b.op(), evaluate(b.left()), evaluate(b.right()));
        }
        return call((MathNode.Call) node);
    }

    private Value map(Value v, java.util.function.DoubleUnaryOperator f) {
        if (v instanceof Scalar s) {
            return new Scalar(f.applyAsDouble(s.value()));
        }
        if (v instanceof Series s) {
            return new Series(mapSeries(s.series(), f));
        }
        if (v instanceof Many m) {
            return new Many(m.series().stream().map(s -> mapSeries(s, f)).toList());
        }
        throw error("An operator needs numbers or time series");
    }

    private static MathSeries mapSeries(MathSeries s, java.util.function.DoubleUnaryOperator f) {
        TreeMap<Long, Double> out = new TreeMap<>();
        s.points().forEach((t, x) -> put(out, t, f.applyAsDouble(x)));
        return new MathSeries(s.label(), s.periodSeconds(), out);
    }

    private static void put(TreeMap<Long, Double> out, long t, double v) {
        if (Double.isFinite(v)) {
            out.put(t, v);
        }
    }

    private Value binary(String op, Value left, Value right) {
        DoubleBinaryOperator f = switch (op) {
            case "+" -> Double::sum;
            case "-" -> (a, b) -> a - b;
            case "*" -> (a, b) -> a * b;
            case "/" -> (a, b) -> a / b;
            case "^" -> Math::pow;
            case "<" -> (a, b) -> a < b ? 1 : 0;
            case ">" -> (a, b) -> a > b ? 1 : 0;
            case "<=" -> (a, b) -> a <= b ? 1 : 0;
            case ">=" -> (a, b) -> a >= b ? 1 : 0;
            case "==" -> (a, b) -> a == b ? 1 : 0;
            case "!=" -> (a, b) -> a != b ? 1 : 0;
            case "AND" -> (a, b) -> a != 0 && b != 0 ? 1 : 0;
            case "OR" -> (a, b) -> a != 0 || b != 0 ? 1 : 0;
            default -> throw error("Unknown operator " + op);
        };
        return combine(left, right, f);
    }

    private Value combine(Value left, Value right, DoubleBinaryOperator f) {
        if (left instanceof Scalar a && right instanceof Scalar b) {
            return new Scalar(f.applyAsDouble(a.value(), b.value()));
        }
        if (left instanceof Many m) {
            return new Many(m.series().stream().map(s -> ((Series) combine(new Series(s), right, f)).series()).toList());
        }
        if (right instanceof Many m) {
            return new Many(m.series().stream().map(s -> ((Series) combine(left, new Series(s), f)).series()).toList());
        }
        if (left instanceof Series a && right instanceof Scalar b) {
            return new Series(mapSeries(a.series(), x -> f.applyAsDouble(x, b.value())));
        }
        if (left instanceof Scalar a && right instanceof Series b) {
            return new Series(mapSeries(b.series(), x -> f.applyAsDouble(a.value(), x)));
        }
        if (left instanceof Series a && right instanceof Series b) {
            TreeMap<Long, Double> out = new TreeMap<>();
            a.series().points().forEach((t, x) -> {
                Double y = b.series().points().get(t);
                if (y != null) {
                    put(out, t, f.applyAsDouble(x, y));
                }
            });
            return new Series(new MathSeries(a.series().label(), Math.min(a.series().periodSeconds(), b.series().periodSeconds()), out));
        }
        throw error("An operator needs numbers or time series");
    }

    private Value call(MathNode.Call c) {
        List<MathNode> args = c.args();
        return switch (c.function()) {
            case "SUM" -> aggregate(c, args, values -> values.stream().mapToDouble(Double::doubleValue).sum());
            case "AVG" -> aggregate(c, args, values -> values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
            case "MIN" -> aggregate(c, args, values -> values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN));
            case "MAX" -> aggregate(c, args, values -> values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
            case "ABS" -> map(one(c, args), Math::abs);
            case "CEIL" -> map(one(c, args), Math::ceil);
            case "FLOOR" -> map(one(c, args), Math::floor);
            case "FILL" -> fill(c, args);
            case "IF" -> conditional(c, args);
            case "METRICS" -> metrics(c, args);
            default -> throw error("Unknown function " + c.function());
        };
    }

    private Value one(MathNode.Call c, List<MathNode> args) {
        if (args.size() != 1) {
            throw error(c.function() + " takes 1 argument, got " + args.size());
        }
        return evaluate(args.get(0));
    }

    private Value aggregate(MathNode.Call c, List<MathNode> args, Function<List<Double>, Double> f) {
        Value v = one(c, args);
        if (v instanceof Scalar s) {
            return s;
        }
        if (v instanceof Series s) {
                List<Double> all = new ArrayList<>(s.series().points().values());
                return new Scalar(all.isEmpty() ? Double.NaN : f.apply(all));
        }
        if (v instanceof Many m) {
                TreeMap<Long, List<Double>> byTime = new TreeMap<>();
                long period = Long.MAX_VALUE;
                for (MathSeries s : m.series()) {
                    period = Math.min(period, s.periodSeconds());
                    s.points().forEach((t, x) -> byTime.computeIfAbsent(t, k -> new ArrayList<>()).add(x));
                }
                TreeMap<Long, Double> out = new TreeMap<>();
                byTime.forEach((t, xs) -> put(out, t, f.apply(xs)));
                return new Series(new MathSeries(null, period == Long.MAX_VALUE ? 60 : period, out));
        }
        throw error(c.function() + " needs a time series or an array of time series");
    }

    private Value fill(MathNode.Call c, List<MathNode> args) {
        if (args.size() != 2) {
            throw error("FILL takes 2 arguments, got " + args.size());
        }
        Value target = evaluate(args.get(0));
        Value with = evaluate(args.get(1));
        if (!(with instanceof Scalar) && !(with instanceof Keyword)) {
            throw error("The second argument of FILL must be a number, REPEAT or LINEAR");
        }
        if (target instanceof Series s) {
            return new Series(fillSeries(s.series(), with));
        }
        if (target instanceof Many m) {
            return new Many(m.series().stream().map(s -> fillSeries(s, with)).toList());
        }
        if (target instanceof Scalar s) {
            return s;
        }
        throw error("The first argument of FILL must be a time series or an array of time series");
    }

    /** Every period start of the requested range with no value gets one. */
    private MathSeries fillSeries(MathSeries s, Value with) {
        TreeMap<Long, Double> out = new TreeMap<>(s.points());
        long step = Math.max(1, s.periodSeconds());
        for (long t = context.startSecond(); t < context.endSecond(); t += step) {
            if (out.containsKey(t)) {
                continue;
            }
            Double v;
            if (with instanceof Scalar x) {
                v = x.value();
            } else if (((Keyword) with).name().equals("REPEAT")) {
                Map.Entry<Long, Double> before = s.points().floorEntry(t);
                Map.Entry<Long, Double> after = s.points().ceilingEntry(t);
                v = before != null ? before.getValue() : after != null ? after.getValue() : null;
            } else {
                Map.Entry<Long, Double> before = s.points().floorEntry(t);
                Map.Entry<Long, Double> after = s.points().ceilingEntry(t);
                if (before != null && after != null) {
                    double share = (double) (t - before.getKey()) / (after.getKey() - before.getKey());
                    v = before.getValue() + share * (after.getValue() - before.getValue());
                } else {
                    v = null; // LINEAR does not extrapolate beyond the first or last datapoint
                }
            }
            if (v != null) {
                put(out, t, v);
            }
        }
        return new MathSeries(s.label(), s.periodSeconds(), out);
    }

    private Value conditional(MathNode.Call c, List<MathNode> args) {
        if (args.size() != 2 && args.size() != 3) {
            throw error("IF takes 2 or 3 arguments, got " + args.size());
        }
        Value condition = evaluate(args.get(0));
        Value then = evaluate(args.get(1));
        Value otherwise = args.size() == 3 ? evaluate(args.get(2)) : null;
        if (condition instanceof Scalar s) {
            if (s.value() != 0) {
                return then;
            }
            return otherwise != null ? otherwise : new Series(new MathSeries(null, 60, new TreeMap<>()));
        }
        if (!(condition instanceof Series cs)) {
            throw error("The condition of IF must be a number or one time series");
        }
        TreeMap<Long, Double> out = new TreeMap<>();
        cs.series().points().forEach((t, x) -> {
            Double v = at(x != 0 ? then : otherwise, t);
            if (v != null) {
                put(out, t, v);
            }
        });
        return new Series(new MathSeries(cs.series().label(), cs.series().periodSeconds(), out));
    }

    private Double at(Value v, long t) {
        if (v == null) {
            return null;
        }
        if (v instanceof Scalar s) {
            return s.value();
        }
        if (v instanceof Series s) {
            return s.series().points().get(t);
        }
        throw error("The values of IF must be numbers or one time series");
    }

    private Value metrics(MathNode.Call c, List<MathNode> args) {
        String filter = null;
        if (args.size() == 1) {
            if (!(evaluate(args.get(0)) instanceof Text t)) {
                throw error("The argument of METRICS must be a string");
            }
            filter = t.value();
        } else if (args.size() > 1) {
            throw error("METRICS takes 0 or 1 argument, got " + args.size());
        }
        List<MathSeries> all = new ArrayList<>();
        for (Map.Entry<String, MathSeries> e : context.metrics()) {
            if (filter == null || e.getKey().contains(filter)) {
                all.add(e.getValue());
            }
        }
        return new Many(all);
    }
}
