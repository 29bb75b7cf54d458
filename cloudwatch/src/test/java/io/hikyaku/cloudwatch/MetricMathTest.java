package io.hikyaku.cloudwatch;

import static io.hikyaku.cloudwatch.PutMetricDataTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Metric math in GetMetricData over custom metrics published at known minutes. */
class MetricMathTest {

    private final FakeClock clock = new FakeClock(1_800_000_000_000L - 1_800_000_000_000L % 60_000);
    private final CloudWatch cw = CloudWatch.withoutData(clock, "111111111111");
    private final JsonCalls a = new JsonCalls(cw, "111111111111");
    private final long t0 = clock.millis / 1000 - 600; // ten minutes ago, a minute boundary

    private void put(String name, long second, double value) {
        a.call("PutMetricData", "{\"Namespace\":\"App\",\"MetricData\":[{\"MetricName\":\"" + name + "\",\"Timestamp\":" + second
                + ",\"Value\":" + value + "}]}");
        assertThat(a.lastStatus).isEqualTo(200);
    }

    private static String stat(String id, String name, boolean returned) {
        return "{\"Id\":\"" + id + "\",\"ReturnData\":" + returned + ",\"MetricStat\":{\"Metric\":{\"Namespace\":\"App\",\"MetricName\":\""
                + name + "\"},\"Period\":60,\"Stat\":\"Average\"}}";
    }

    private static String expr(String id, String expression, String label) {
        return "{\"Id\":\"" + id + "\",\"Expression\":\"" + expression + "\"" + (label == null ? "" : ",\"Label\":\"" + label + "\"") + "}";
    }

    private JsonNode data(String... queries) {
        return a.call("GetMetricData", "{\"StartTime\":" + t0 + ",\"EndTime\":" + (t0 + 300) + ",\"ScanBy\":\"TimestampAscending\","
                + "\"MetricDataQueries\":[" + String.join(",", queries) + "]}");
    }

    private void seed() {
        // backlog at minutes 0..4; workers at 0, 1, 3 (minute 2 and 4 missing), 0 workers at minute 3
        for (int i = 0; i < 5; i++) {
            put("Backlog", t0 + i * 60 + 5, 10 * (i + 1));
        }
        put("Workers", t0 + 5, 2);
        put("Workers", t0 + 65, 5);
        put("Workers", t0 + 185, 0);
    }

    @Test
    void backlogPerWorkerAlignsTimestampsAndDropsMissingAndInfinitePoints() {
        seed();
        JsonNode out = data(stat("m1", "Backlog", false), stat("m2", "Workers", false), expr("e1", "m1 / m2", "Backlog per worker"));
        JsonNode results = out.get("MetricDataResults");
        assertThat(results).hasSize(1);
        JsonNode e1 = results.get(0);
        assertThat(e1.get("Id").asText()).isEqualTo("e1");
        assertThat(e1.get("Label").asText()).isEqualTo("Backlog per worker");
        assertThat(e1.get("Timestamps").toString()).isEqualTo("[" + t0 + "," + (t0 + 60) + "]");
        assertThat(e1.get("Values").toString()).isEqualTo("[5.0,4.0]");
        assertThat(e1.get("StatusCode").asText()).isEqualTo("Complete");
    }

    @Test
    void fillIfAndAggregates() {
        seed();
        JsonNode filled = data(stat("m1", "Backlog", false), stat("m2", "Workers", false),
                expr("e1", "m1 / FILL(m2, 1)", null)).get("MetricDataResults").get(0);
        assertThat(filled.get("Values").toString()).isEqualTo("[5.0,4.0,30.0,50.0]"); // minute 3: 40/0 dropped
        assertThat(filled.get("Label").asText()).isEqualTo("e1");
        JsonNode guarded = data(stat("m1", "Backlog", false), stat("m2", "Workers", false),
                expr("e1", "IF(FILL(m2, 0) > 0, m1 / FILL(m2, 0), m1)", null)).get("MetricDataResults").get(0);
        assertThat(guarded.get("Values").toString()).isEqualTo("[5.0,4.0,30.0,40.0,50.0]");
        JsonNode repeat = data(stat("m2", "Workers", false), expr("e1", "FILL(m2, REPEAT)", null)).get("MetricDataResults").get(0);
        assertThat(repeat.get("Values").toString()).isEqualTo("[2.0,5.0,5.0,0.0,0.0]");
        JsonNode sums = data(stat("m1", "Backlog", true), stat("m2", "Workers", true), expr("e1", "SUM(METRICS())", null),
                expr("e2", "MAX(m1) - MIN(m1) + AVG(m2)", null), expr("e3", "SUM([m1, m2]) * 2", "twice")).get("MetricDataResults");
        assertThat(sums).hasSize(5);
        assertThat(sums.get(2).get("Values").toString()).isEqualTo("[12.0,25.0,30.0,40.0,50.0]");
        // a number: at every period of the range
        assertThat(sums.get(3).get("Values").toString()).isEqualTo("[" + "42.333333333333336,".repeat(4) + "42.333333333333336]");
        assertThat(sums.get(4).get("Values").get(0).asDouble()).isEqualTo(24.0);
        JsonNode chained = data(stat("m1", "Backlog", false), expr("e1", "m1 * 2", null), expr("e2", "e1 + 1", null))
                .get("MetricDataResults");
        assertThat(chained.get(1).get("Values").get(0).asDouble()).isEqualTo(21.0);
        JsonNode logic = data(stat("m1", "Backlog", false), expr("e1", "IF(m1 >= 20 AND m1 != 40, 1, 0)", null))
                .get("MetricDataResults").get(0);
        assertThat(logic.get("Values").toString()).isEqualTo("[0.0,1.0,1.0,0.0,1.0]");
    }

    @Test
    void errorsAreValidationErrors() {
        seed();
        assertError(data(stat("m1", "Backlog", true), expr("e1", "ANOMALY_DETECTION_BAND(m1)", null)), "ValidationError",
                "Error in expression e1: Unknown function ANOMALY_DETECTION_BAND.");
        assertThat(a.lastStatus).isEqualTo(400);
        assertError(data(expr("e1", "m9 + 1", null)), "ValidationError", "Error in expression e1: Unknown metric or expression id m9.");
        assertError(data(expr("e1", "(1 + ", null)), "ValidationError", "Error in expression e1: Unexpected end of the expression.");
        assertError(data(expr("e1", "e2", null), expr("e2", "e1", null)), "ValidationError",
                "Error in expression e1: the expressions refer to each other in a cycle.");
    }
}
