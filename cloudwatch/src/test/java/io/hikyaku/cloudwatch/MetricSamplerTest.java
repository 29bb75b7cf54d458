package io.hikyaku.cloudwatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.ServiceView;
import io.hikyaku.engine.EngineEvents;
import io.hikyaku.engine.MoveTaskInfo;
import io.hikyaku.engine.QueueSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampler on a fixed clock, the history's bounds and snapshot file, and the API's checks, without a server. */
class MetricSamplerTest {

    private long now = 1_800_000_000_000L - 1_800_000_000_000L % 60_000 + 5_000;
    private final Clock clock = new Clock() {
        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return Instant.ofEpochMilli(now); }
    };
    private final List<QueueSnapshot> queues = new ArrayList<>();
    private final ServiceView view = new ServiceView() {
        @Override public List<QueueSnapshot> queueSnapshots() { return List.copyOf(queues); }
        @Override public List<MoveTaskInfo> moveTasks() { return List.of(); }
        @Override public int parkedReceives() { return 0; }
        @Override public void setEngineEvents(EngineEvents events) { }
    };
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final MetricHistory history = new MetricHistory(2);
    private final MetricSampler sampler = new MetricSampler(view, registry, new SentSizes(), history, clock);

    private Counter sent(String queue) {
        return Counter.builder("hikyaku.sqs.number.of.messages.sent").tags("account", "1", "queue", queue).register(registry);
    }

    @Test
    void recordsEachMinuteFromCountersAndGauges() {
        queues.add(new QueueSnapshot("1", "q", false, 7, 2, 1, now - 30_000, 0));
        long minute = now / 60_000;
        assertThat(sampler.runDue()).as("the first call takes starting totals").isFalse();
        sent("q").increment(5);
        now += 30_000;
        assertThat(sampler.runDue()).as("same minute").isFalse();
        now += 30_000;
        assertThat(sampler.runDue()).isTrue();
        assertThat(history.aggregate("1", "q", SqsMetric.NUMBER_OF_MESSAGES_SENT, minute, minute + 1).sum()).isEqualTo(5);
        assertThat(history.aggregate("1", "q", SqsMetric.APPROXIMATE_NUMBER_OF_MESSAGES_VISIBLE, minute, minute + 1).sum()).isEqualTo(7);
        assertThat(history.aggregate("1", "q", SqsMetric.APPROXIMATE_AGE_OF_OLDEST_MESSAGE, minute, minute + 1).sum()).isEqualTo(90);
        assertThat(history.aggregate("1", "q", SqsMetric.SENT_MESSAGE_SIZE, minute, minute + 1)).as("no sizes observed").isNull();
        assertThat(history.aggregate("1", "q", SqsMetric.NUMBER_OF_DEDUPLICATED_SENT_MESSAGES, minute, minute + 1))
                .as("FIFO only").isNull();
        now += 60_000;
        sampler.runDue();
        Aggregate two = history.aggregate("1", "q", SqsMetric.NUMBER_OF_MESSAGES_SENT, minute, minute + 2);
        assertThat(two).isEqualTo(new Aggregate(2, 5, 0, 5));
    }

    @Test
    void capsTrackedQueuesAndKeepsTheSnapshot(@TempDir Path dir) throws Exception {
        for (String q : List.of("a", "b", "c")) {
            queues.add(new QueueSnapshot("1", q, false, 1, 0, 0, -1, 0));
        }
        sampler.runDue();
        now += 60_000;
        sampler.runDue();
        assertThat(history.size()).isEqualTo(2);
        Path file = dir.resolve(CloudWatch.FILE_NAME);
        history.save(file, now / 60_000);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------"); // queue names of every account: owner only
        MetricHistory loaded = new MetricHistory(2);
        loaded.load(file, now / 60_000);
        long minute = now / 60_000 - 1;
        assertThat(loaded.aggregate("1", "a", SqsMetric.APPROXIMATE_NUMBER_OF_MESSAGES_VISIBLE, minute, minute + 1).sum()).isEqualTo(1);
        MetricHistory dayLater = new MetricHistory(2);
        dayLater.load(file, now / 60_000 + QueueSeries.SLOTS + 1);
        assertThat(dayLater.aggregate("1", "a", SqsMetric.APPROXIMATE_NUMBER_OF_MESSAGES_VISIBLE, minute, minute + 1))
                .as("older than 24 h").isNull();
    }

    @Test
    void queryFormBecomesTheModelTreeAndChecksApply() {
        ObjectNode tree = QueryForm.tree(QueryForm.parameters(null, ("Action=GetMetricData&Version=2010-08-01"
                + "&MetricDataQueries.member.1.Id=a&MetricDataQueries.member.1.MetricStat.Period=60"
                + "&MetricDataQueries.member.1.MetricStat.Stat=p99"
                + "&MetricDataQueries.member.1.MetricStat.Metric.MetricName=NumberOfMessagesSent"
                + "&MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Name=QueueName"
                + "&StartTime=2026-01-01T00:00:00Z&EndTime=2026-01-01T01:00:00Z").getBytes()));
        assertThat(tree.at("/MetricDataQueries/0/MetricStat/Metric/Dimensions/0/Name").asText()).isEqualTo("QueueName");
        CloudWatchApi api = new CloudWatchApi(history, new CustomMetrics(10, 10), "1", clock);
        assertThatThrownBy(() -> api.invoke(CloudWatchOperations.Operation.GET_METRIC_DATA, tree)).isInstanceOfSatisfying(CloudWatchException.class,
                e -> assertThat(e.code).isEqualTo("InvalidParameterValue"));
        assertThat(CloudWatchOperations.find("Nope", CloudWatchOperations.Protocol.QUERY)).isNull();
        // A range of centuries answers at once (only the kept day is scanned), and the datapoint limit holds.
        ObjectNode wide = QueryForm.tree(QueryForm.parameters(null, ("Action=GetMetricData&Version=2010-08-01"
                + "&MetricDataQueries.member.1.Id=a&MetricDataQueries.member.1.MetricStat.Period=60"
                + "&MetricDataQueries.member.1.MetricStat.Stat=Sum&MetricDataQueries.member.1.MetricStat.Metric.Namespace=AWS%2FSQS"
                + "&MetricDataQueries.member.1.MetricStat.Metric.MetricName=NumberOfMessagesSent"
                + "&MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Name=QueueName"
                + "&MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Value=q"
                + "&StartTime=1000-01-01T00:00:00Z&EndTime=9000-01-01T00:00:00Z").getBytes()));
        assertThat((List<?>) api.invoke(CloudWatchOperations.Operation.GET_METRIC_DATA, wide).get("MetricDataResults")).hasSize(1);
        ObjectNode tooMany = QueryForm.tree(QueryForm.parameters(null, ("Namespace=AWS%2FSQS&MetricName=NumberOfMessagesSent"
                + "&Period=60&Statistics.member.1=Sum&StartTime=-9000000000000&EndTime=9000000000000").getBytes()));
        assertThatThrownBy(() -> api.invoke(CloudWatchOperations.Operation.GET_METRIC_STATISTICS, tooMany)).isInstanceOfSatisfying(CloudWatchException.class,
                e -> assertThat(e.code).isEqualTo("InvalidParameterCombination"));
        Map<String, Object> listed = api.invoke(CloudWatchOperations.Operation.LIST_METRICS, QueryForm.tree(Map.of("Namespace", "AWS/EC2")));
        assertThat((List<?>) listed.get("Metrics")).isEmpty();
    }
}
