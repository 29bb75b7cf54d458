package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.DurabilityMode;
import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.ServerConfig;
import io.hikyaku.server.StorageMode;
import io.hikyaku.testsupport.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import software.amazon.awssdk.services.sqs.SqsClient;

/** The CloudWatch datapoints survive a restart on the same data directory (Query GetMetricStatistics before and after). */
class CloudWatchRestartTest {

    @TempDir
    Path dataDir;

    private final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(5));

    private HikyakuServer start() {
        return HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.ROCKSDB).withDataDir(dataDir)
                .withDurability(DurabilityMode.BATCH).withClock(clock));
    }

    @Test
    void datapointsSurviveARestart() throws Exception {
        long minute = clock.millis() / 60_000;
        try (HikyakuServer server = start();
             SqsClient sqs = SqsClient.builder().endpointOverride(URI.create(server.endpoint())).region(Region.US_EAST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                     .httpClient(UrlConnectionHttpClient.create()).build()) {
            String url = sqs.createQueue(b -> b.queueName("kept")).queueUrl();
            for (int i = 0; i < 4; i++) {
                sqs.sendMessage(b -> b.queueUrl(url).messageBody("m"));
            }
            clock.advance(Duration.ofSeconds(60));
            server.cloudWatch().sampleNow();
            assertThat(sentSum(server, minute)).contains("<Sum>4.0</Sum>");
        }
        clock.advance(Duration.ofSeconds(30));
        try (HikyakuServer server = start()) {
            String xml = sentSum(server, minute);
            assertThat(xml).contains("<Sum>4.0</Sum>").contains("<Timestamp>" + Instant.ofEpochSecond(minute * 60) + "</Timestamp>");
        }
    }

    private static String sentSum(HikyakuServer server, long minute) throws Exception {
        String query = "Action=GetMetricStatistics&Version=2010-08-01&Namespace=AWS%2FSQS&MetricName=NumberOfMessagesSent"
                + "&Dimensions.member.1.Name=QueueName&Dimensions.member.1.Value=kept&Period=60&Statistics.member.1=Sum"
                + "&StartTime=" + Instant.ofEpochSecond(minute * 60) + "&EndTime=" + Instant.ofEpochSecond(minute * 60 + 60);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(query)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).startsWith("<GetMetricStatisticsResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\">");
        return r.body();
    }
}
