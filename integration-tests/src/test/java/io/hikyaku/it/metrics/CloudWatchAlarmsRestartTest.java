package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.ComparisonOperator;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatch.model.StateValue;
import software.amazon.awssdk.services.cloudwatch.model.Statistic;

/** Alarms (configuration, state, history, tags) and custom metrics survive a restart on the same data directory. */
class CloudWatchAlarmsRestartTest {

    @TempDir
    Path dataDir;

    private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(5));

    private HikyakuServer start() {
        return HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH).withClock(clock));
    }

    private static CloudWatchClient client(HikyakuServer server) {
        return CloudWatchClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Test
    void alarmsStateHistoryAndCustomMetricsSurviveARestart() throws Exception {
        long minute = clock.millis() / 60_000;
        try (HikyakuServer server = start(); CloudWatchClient cw = client(server)) {
            cw.putMetricData(b -> b.namespace("App").metricData(d -> d.metricName("Errors").value(7.0)));
            cw.putMetricAlarm(b -> b.alarmName("errors").namespace("App").metricName("Errors").statistic(Statistic.SUM).period(60)
                    .evaluationPeriods(1).threshold(5.0).comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                    .tags(t -> t.key("team").value("core")));
            clock.advance(Duration.ofSeconds(60));
            server.cloudWatch().sampleNow();
            assertThat(cw.describeAlarms(b -> b.alarmNames("errors")).metricAlarms().get(0).stateValue()).isEqualTo(StateValue.ALARM);
        }
        clock.advance(Duration.ofSeconds(10));
        try (HikyakuServer server = start(); CloudWatchClient cw = client(server)) {
            MetricAlarm kept = cw.describeAlarms(b -> b.alarmNames("errors")).metricAlarms().get(0);
            assertThat(kept.stateValue()).isEqualTo(StateValue.ALARM);
            assertThat(kept.threshold()).isEqualTo(5.0);
            assertThat(kept.stateReason()).startsWith("Threshold Crossed: 1 out of the last 1 datapoints [7.0 (");
            assertThat(cw.describeAlarmHistory(b -> b.alarmName("errors")).alarmHistoryItems()).extracting(h -> h.historySummary())
                    .containsExactly("Alarm updated from INSUFFICIENT_DATA to ALARM", "Alarm \"errors\" created");
            assertThat(cw.listTagsForResource(b -> b.resourceARN(kept.alarmArn())).tags()).extracting(t -> t.value()).containsExactly("core");
            var points = cw.getMetricStatistics(b -> b.namespace("App").metricName("Errors").period(60).statistics(Statistic.SUM)
                    .startTime(Instant.ofEpochSecond(minute * 60)).endTime(Instant.ofEpochSecond(minute * 60 + 60))).datapoints();
            assertThat(points).hasSize(1);
            assertThat(points.get(0).sum()).isEqualTo(7.0);
        }
    }
}
