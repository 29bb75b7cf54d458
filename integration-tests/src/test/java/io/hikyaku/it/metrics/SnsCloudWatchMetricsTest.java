package io.hikyaku.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Datapoint;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.DimensionFilter;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.StandardUnit;
import software.amazon.awssdk.services.cloudwatch.model.Statistic;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * AWS/SNS metrics per topic (dimension TopicName) in the CloudWatch API, read with the AWS SDK for Java v2
 * CloudWatch client after publishes made with its SNS client, on the server's fake clock: published, delivered,
 * filtered out (and its NoMessageAttributes part), failed to a deleted queue and redriven to the subscription's
 * DLQ, PublishSize in bytes; GetMetricStatistics, GetMetricData and ListMetrics.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SnsCloudWatchMetricsTest extends SqsTestBase {

    private CloudWatchClient cw;
    private SnsClient sns;

    @BeforeAll
    void clients() {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        cw = CloudWatchClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    /** The clock enters the next minute: the minute that ended is sampled (SNS's tallies drained into it). */
    private void nextMinute() {
        clock.advance(Duration.ofSeconds(60 - clock.millis() / 1000 % 60));
        server.cloudWatch().sampleNow();
    }

    private Datapoint one(String topicName, String metric, Statistic... statistics) {
        Instant now = Instant.ofEpochMilli(clock.millis());
        List<Datapoint> points = cw.getMetricStatistics(b -> b.namespace("AWS/SNS").metricName(metric)
                .dimensions(Dimension.builder().name("TopicName").value(topicName).build())
                .startTime(now.minus(Duration.ofMinutes(10))).endTime(now.plus(Duration.ofMinutes(1))).period(60)
                .statistics(statistics)).datapoints();
        assertThat(points).as(metric).hasSize(1);
        return points.get(0);
    }

    @Test
    void aTopicsPublishesDeliveriesFiltersFailuresAndSizesAreItsAwsSnsMetrics() {
        String topicName = unique("orders");
        String topic = sns.createTopic(b -> b.name(topicName)).topicArn();
        String all = unique("all");
        String shoes = unique("shoes");
        String gone = unique("gone");
        String dlq = unique("dlq");
        createQueue(all);
        createQueue(shoes);
        String goneUrl = createQueue(gone);
        String dlqUrl = createQueue(dlq);
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(all)));
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(shoes))
                .attributes(Map.of("FilterPolicy", "{\"kind\":[\"shoes\"]}")));
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(gone))
                .attributes(Map.of("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + arn(dlq) + "\"}")));
        sqs.deleteQueue(b -> b.queueUrl(goneUrl));

        // 11 bytes of message + "kind" "String" "hats" = 25 bytes; the second has no attributes: 5 bytes
        sns.publish(b -> b.topicArn(topic).message("hats please")
                .messageAttributes(Map.of("kind", MessageAttributeValue.builder().dataType("String").stringValue("hats").build())));
        sns.publish(b -> b.topicArn(topic).message("plain"));
        nextMinute();

        Datapoint published = one(topicName, "NumberOfMessagesPublished", Statistic.SUM, Statistic.SAMPLE_COUNT);
        assertThat(published.sum()).isEqualTo(2.0);
        assertThat(published.sampleCount()).isEqualTo(2.0);
        assertThat(published.unit()).isEqualTo(StandardUnit.COUNT);
        assertThat(one(topicName, "NumberOfNotificationsDelivered", Statistic.SUM).sum()).as("the unfiltered queue, twice").isEqualTo(2.0);
        assertThat(one(topicName, "NumberOfNotificationsFilteredOut", Statistic.SUM).sum()).isEqualTo(2.0);
        assertThat(one(topicName, "NumberOfNotificationsFilteredOut-NoMessageAttributes", Statistic.SUM).sum()).isEqualTo(1.0);
        assertThat(one(topicName, "NumberOfNotificationsFailed", Statistic.SUM).sum()).as("the deleted queue").isEqualTo(2.0);
        assertThat(one(topicName, "NumberOfNotificationsRedrivenToDlq", Statistic.SUM).sum()).isEqualTo(2.0);
        assertThat(attribute(dlqUrl, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).isEqualTo("2");
        Datapoint size = one(topicName, "PublishSize", Statistic.AVERAGE, Statistic.MINIMUM, Statistic.MAXIMUM);
        assertThat(size.unit()).isEqualTo(StandardUnit.BYTES);
        assertThat(size.average()).isEqualTo(15.0);
        assertThat(size.minimum()).isEqualTo(5.0);
        assertThat(size.maximum()).isEqualTo(25.0);

        Instant now = Instant.ofEpochMilli(clock.millis());
        List<MetricDataResult> data = cw.getMetricData(b -> b.startTime(now.minus(Duration.ofMinutes(10))).endTime(now)
                .metricDataQueries(q -> q.id("size").metricStat(s -> s.stat("Average").period(60)
                        .metric(m -> m.namespace("AWS/SNS").metricName("PublishSize")
                                .dimensions(Dimension.builder().name("TopicName").value(topicName).build()))))).metricDataResults();
        assertThat(data).singleElement().satisfies(r -> assertThat(r.values()).containsExactly(15.0));

        List<Metric> listed = cw.listMetrics(b -> b.namespace("AWS/SNS")
                .dimensions(DimensionFilter.builder().name("TopicName").value(topicName).build())).metrics();
        assertThat(listed).extracting(Metric::metricName).containsExactlyInAnyOrder("NumberOfMessagesPublished",
                "NumberOfNotificationsDelivered", "NumberOfNotificationsFilteredOut",
                "NumberOfNotificationsFilteredOut-NoMessageAttributes", "NumberOfNotificationsFailed",
                "NumberOfNotificationsRedrivenToDlq", "PublishSize");
        assertThat(listed).allSatisfy(m -> assertThat(m.dimensions())
                .containsExactly(Dimension.builder().name("TopicName").value(topicName).build()));

        // a quiet minute adds no datapoint; the next publish is filed under its own minute
        nextMinute();
        sns.publish(b -> b.topicArn(topic).message("again"));
        nextMinute();
        Instant later = Instant.ofEpochMilli(clock.millis());
        List<Datapoint> perMinute = cw.getMetricStatistics(b -> b.namespace("AWS/SNS").metricName("NumberOfMessagesPublished")
                .dimensions(Dimension.builder().name("TopicName").value(topicName).build())
                .startTime(later.minus(Duration.ofMinutes(10))).endTime(later).period(60).statistics(Statistic.SUM)).datapoints();
        assertThat(perMinute).extracting(Datapoint::sum).containsExactlyInAnyOrder(2.0, 1.0);
    }

    @Test
    void malformedAttributesAndBodiesCountInTheirFilteredOutParts() {
        String topicName = unique("parts");
        String topic = sns.createTopic(b -> b.name(topicName)).topicArn();
        String byAttribute = unique("by-attribute");
        String byBody = unique("by-body");
        createQueue(byAttribute);
        createQueue(byBody);
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(byAttribute))
                .attributes(Map.of("FilterPolicy", "{\"sizes\":[\"L\"]}")));
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(byBody))
                .attributes(Map.of("FilterPolicyScope", "MessageBody", "FilterPolicy", "{\"kind\":[\"shoes\"]}")));
        // not JSON (body scope: InvalidMessageBody) with a String.Array that is not an array (InvalidAttributes)
        sns.publish(b -> b.topicArn(topic).message("not json")
                .messageAttributes(Map.of("sizes", MessageAttributeValue.builder().dataType("String.Array").stringValue("[\"L\"").build())));
        // a JSON body that does not match, with a well-formed attribute that does not match: in neither part
        sns.publish(b -> b.topicArn(topic).message("{\"kind\":\"hats\"}")
                .messageAttributes(Map.of("sizes", MessageAttributeValue.builder().dataType("String.Array").stringValue("[\"S\"]").build())));
        nextMinute();
        assertThat(one(topicName, "NumberOfNotificationsFilteredOut", Statistic.SUM).sum()).isEqualTo(4.0);
        assertThat(one(topicName, "NumberOfNotificationsFilteredOut-InvalidAttributes", Statistic.SUM).sum()).isEqualTo(1.0);
        assertThat(one(topicName, "NumberOfNotificationsFilteredOut-InvalidMessageBody", Statistic.SUM).sum()).isEqualTo(1.0);
        List<Metric> listed = cw.listMetrics(b -> b.namespace("AWS/SNS")
                .dimensions(DimensionFilter.builder().name("TopicName").value(topicName).build())).metrics();
        assertThat(listed).extracting(Metric::metricName).doesNotContain("NumberOfNotificationsFilteredOut-NoMessageAttributes",
                "NumberOfNotificationsDelivered");
    }
}
