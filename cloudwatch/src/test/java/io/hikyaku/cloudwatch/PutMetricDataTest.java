package io.hikyaku.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PutMetricData's checks, storage per account, and reads through GetMetricStatistics / ListMetrics. */
class PutMetricDataTest {

    /** A minute boundary plus 10 s. */
    private final FakeClock clock = new FakeClock(1_800_000_000_000L - 1_800_000_000_000L % 60_000 + 10_000);
    private final CloudWatch cw = CloudWatch.withoutData(clock, "111111111111");
    private final JsonCalls a = new JsonCalls(cw, "111111111111");
    private final JsonCalls b = new JsonCalls(cw, "222222222222");

    private long minuteStart() {
        return clock.millis / 60_000 * 60;
    }

    private JsonNode put(JsonCalls who, String data) {
        return who.call("PutMetricData", "{\"Namespace\":\"App\",\"MetricData\":" + data + "}");
    }

    private JsonNode stats(JsonCalls who, String name, String dims) {
        long start = minuteStart();
        return who.call("GetMetricStatistics", "{\"Namespace\":\"App\",\"MetricName\":\"" + name + "\",\"Dimensions\":" + dims
                + ",\"StartTime\":" + start + ",\"EndTime\":" + (start + 60) + ",\"Period\":60,"
                + "\"Statistics\":[\"Sum\",\"SampleCount\",\"Minimum\",\"Maximum\",\"Average\"]}");
    }

    @Test
    void valuesStatisticSetsAndCountsMergeIntoTheMinute() {
        put(a, "[{\"MetricName\":\"RunningWorkers\",\"Dimensions\":[{\"Name\":\"Service\",\"Value\":\"w\"}],\"Value\":4,\"Unit\":\"Count\"}]");
        assertThat(a.lastStatus).isEqualTo(200);
        put(a, "[{\"MetricName\":\"RunningWorkers\",\"Dimensions\":[{\"Name\":\"Service\",\"Value\":\"w\"}],"
                + "\"StatisticValues\":{\"SampleCount\":2,\"Sum\":6,\"Minimum\":1,\"Maximum\":5}}]");
        put(a, "[{\"MetricName\":\"RunningWorkers\",\"Dimensions\":[{\"Name\":\"Service\",\"Value\":\"w\"}],"
                + "\"Values\":[10,0.5],\"Counts\":[1,2]}]");
        JsonNode p = stats(a, "RunningWorkers", "[{\"Name\":\"Service\",\"Value\":\"w\"}]").get("Datapoints").get(0);
        assertThat(p.get("SampleCount").asDouble()).isEqualTo(6.0);
        assertThat(p.get("Sum").asDouble()).isEqualTo(21.0);
        assertThat(p.get("Minimum").asDouble()).isEqualTo(0.5);
        assertThat(p.get("Maximum").asDouble()).isEqualTo(10.0);
        assertThat(p.get("Average").asDouble()).isEqualTo(3.5);
        assertThat(p.get("Unit").asText()).isEqualTo("Count");
        assertThat(p.get("Timestamp").asLong()).isEqualTo(minuteStart());
        // Another account sees nothing of it.
        assertThat(stats(b, "RunningWorkers", "[{\"Name\":\"Service\",\"Value\":\"w\"}]").get("Datapoints")).isEmpty();
        assertThat(b.call("ListMetrics", "{}").get("Metrics")).isEmpty();
        JsonNode listed = a.call("ListMetrics", "{\"Namespace\":\"App\",\"Dimensions\":[{\"Name\":\"Service\"}]}").get("Metrics");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("MetricName").asText()).isEqualTo("RunningWorkers");
        assertThat(listed.get(0).get("Dimensions").get(0).get("Value").asText()).isEqualTo("w");
    }

    @Test
    void refusesWhatCloudWatchRefuses() {
        assertError(a.call("PutMetricData", "{\"Namespace\":\"AWS/SQS\",\"MetricData\":[{\"MetricName\":\"x\",\"Value\":1}]}"),
                "InvalidParameterValueException", "The value AWS/SQS for parameter Namespace is invalid.");
        assertError(a.call("PutMetricData", "{\"MetricData\":[{\"MetricName\":\"x\",\"Value\":1}]}"),
                "MissingRequiredParameterException", "The parameter Namespace is required.");
        assertError(put(a, "[{\"MetricName\":\"x\",\"Value\":1,\"StatisticValues\":{\"SampleCount\":1,\"Sum\":1,\"Minimum\":1,\"Maximum\":1}}]"),
                "InvalidParameterCombinationException",
                "The parameters MetricData.member.1.Value and MetricData.member.1.StatisticValues are mutually exclusive and you have specified both.");
        assertError(put(a, "[{\"MetricName\":\"x\",\"Value\":1,\"Timestamp\":" + (clock.millis / 1000 - 15 * 86400) + "}]"),
                "InvalidParameterValueException", "The parameter MetricData.member.1.Timestamp must specify a time no more than two weeks in the past.");
        assertError(put(a, "[{\"MetricName\":\"x\",\"Value\":1,\"Timestamp\":" + (clock.millis / 1000 + 3 * 3600) + "}]"),
                "InvalidParameterValueException", "The parameter MetricData.member.1.Timestamp must specify a time no more than two hours in the future.");
        assertError(put(a, "[{\"MetricName\":\"x\",\"Values\":[1,2],\"Counts\":[1]}]"),
                "InvalidParameterCombinationException", "The parameters MetricData.member.1.Values and MetricData.member.1.Counts must be of the same size.");
        assertError(put(a, "[{\"MetricName\":\"x\",\"Value\":1,\"Unit\":\"Parsecs\"}]"),
                "InvalidParameterValueException", "The value Parsecs for parameter MetricData.member.1.Unit is not a valid unit.");
        assertError(put(a, "[{\"MetricName\":\"x\",\"Value\":1,\"StorageResolution\":5}]"),
                "InvalidParameterValueException", "The value 5 for parameter MetricData.member.1.StorageResolution is not valid. Valid values are 1 and 60.");
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < 31; i++) {
            many.append(i == 0 ? "" : ",").append("{\"Name\":\"d").append(i).append("\",\"Value\":\"v\"}");
        }
        assertError(put(a, "[{\"MetricName\":\"x\",\"Value\":1,\"Dimensions\":" + many + "]}]"),
                "InvalidParameterValueException", "The collection MetricData.member.1.Dimensions must not have a size greater than 30.");
        StringBuilder metrics = new StringBuilder("[");
        for (int i = 0; i < 1001; i++) {
            metrics.append(i == 0 ? "" : ",").append("{\"MetricName\":\"m\",\"Value\":1}");
        }
        assertError(put(a, metrics + "]"), "InvalidParameterValueException", "The collection MetricData must not have a size greater than 1000.");
        assertError(put(a, "[{\"MetricName\":\"x\"}]"), "MissingRequiredParameterException", "The parameter MetricData.member.1.Value is required.");
        assertThat(a.call("ListMetrics", "{}").get("Metrics")).as("nothing refused was kept").isEmpty();
    }

    @Test
    void aFullAccountIsAClearErrorAndOthersAreUnaffected() {
        CustomMetrics store = new CustomMetrics(2, 3);
        long minute = clock.millis / 60_000;
        store.record("a", java.util.List.of(point("m1", minute), point("m2", minute)), minute);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.record("a", java.util.List.of(point("m3", minute)), minute))
                .isInstanceOf(CloudWatchException.class).hasMessageContaining("limit of 2 distinct custom metrics per account");
        store.record("a", java.util.List.of(point("m1", minute)), minute); // an existing series still takes datapoints
        store.record("b", java.util.List.of(point("m1", minute)), minute);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.record("c", java.util.List.of(point("m1", minute)), minute))
                .hasMessageContaining("limit of 3 distinct custom metrics on this server");
        // 24 h without a datapoint frees a place.
        store.record("c", java.util.List.of(point("m1", minute + 1441)), minute + 1441);
        assertThat(store.size()).isEqualTo(1);
    }

    private static CustomMetrics.Point point(String name, long minute) {
        return new CustomMetrics.Point(new MetricKey("App", name, java.util.List.of()), minute, 1, 1, 1, 1, null);
    }

    @Test
    void theSnapshotKeepsCustomMetricsAcrossARestart(@TempDir Path dir) throws Exception {
        CustomMetrics store = new CustomMetrics(10, 10);
        long minute = clock.millis / 60_000;
        store.record("a", java.util.List.of(new CustomMetrics.Point(new MetricKey("App", "w",
                java.util.List.of(new MetricKey.Dimension("S", "x"))), minute, 2, 8, 3, 5, "Count")), minute);
        Path file = dir.resolve(CustomMetrics.FILE_NAME);
        store.save(file, minute);
        CustomMetrics again = new CustomMetrics(10, 10);
        again.load(file, minute + 1);
        Aggregate agg = again.aggregate("a", new MetricKey("App", "w", java.util.List.of(new MetricKey.Dimension("S", "x"))), null, minute, minute + 1);
        assertThat(agg.sum()).isEqualTo(8.0);
        assertThat(agg.exactCount()).isEqualTo(2.0);
        assertThat(again.unit("a", new MetricKey("App", "w", java.util.List.of(new MetricKey.Dimension("S", "x"))))).isEqualTo("Count");
    }

    static void assertError(JsonNode body, String type, String message) {
        assertThat(body.get("__type").asText()).isEqualTo("com.amazonaws.cloudwatch#" + type);
        assertThat(body.get("message").asText()).isEqualTo(message);
    }
}
