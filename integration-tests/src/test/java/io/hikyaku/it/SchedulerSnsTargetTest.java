package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.scheduler.model.Target;
import software.amazon.awssdk.services.scheduler.model.ValidationException;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * A schedule whose target is an SNS topic of the same server (the welcome extension): its fire is a
 * Publish, which SNS fans out to the topic's subscribed queues (the SNS envelope, and raw delivery); a topic that
 * does not exist is a target error, noted in the dead-letter queue. SDK v2 scheduler and sns clients, injected clock.
 */
class SchedulerSnsTargetTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROLE = "arn:aws:iam::000000000000:role/scheduler";

    private SchedulerClient scheduler;
    private SnsClient sns;

    @BeforeAll
    void clients() {
        StaticCredentialsProvider credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        scheduler = SchedulerClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
        sns = SnsClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build()).build();
    }

    @Test
    void aFireIsPublishedToTheTopicAndFansOutToItsQueues() throws Exception {
        String topic = sns.createTopic(b -> b.name(unique("reminders"))).topicArn();
        String enveloped = unique("reminders-enveloped");
        String raw = unique("reminders-raw");
        String envelopedUrl = createQueue(enveloped);
        String rawUrl = createQueue(raw);
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(enveloped)));
        sns.subscribe(b -> b.topicArn(topic).protocol("sqs").endpoint(arn(raw)).attributes(Map.of("RawMessageDelivery", "true")));

        Instant due = clock.instant().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.SECONDS);
        String wall = LocalDateTime.ofInstant(due, ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
        String name = unique("remind");
        scheduler.createSchedule(b -> b.name(name).scheduleExpression("at(" + wall + ")").flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                .target(Target.builder().arn(topic).roleArn(ROLE).input("reminder for <aws.scheduler.scheduled-time>").build()));
        assertThat(scheduler.getSchedule(b -> b.name(name)).target().arn()).isEqualTo(topic);

        advance(Duration.ofHours(3));
        String expected = "reminder for " + due;
        assertThat(firstMessage(rawUrl).body()).isEqualTo(expected);
        JsonNode envelope = JSON.readTree(firstMessage(envelopedUrl).body());
        assertThat(envelope.get("Type").asText()).isEqualTo("Notification");
        assertThat(envelope.get("TopicArn").asText()).isEqualTo(topic);
        assertThat(envelope.get("Message").asText()).isEqualTo(expected);
        scheduler.deleteSchedule(b -> b.name(name));
    }

    @Test
    void aMissingTopicIsATargetErrorNotedInTheDeadLetterQueue() throws Exception {
        String dlq = unique("reminders-dlq");
        String dlqUrl = createQueue(dlq);
        String missing = "arn:aws:sns:us-east-1:000000000000:" + unique("no-such-topic");
        String name = unique("lost");
        scheduler.createSchedule(b -> b.name(name).scheduleExpression("rate(1 day)").flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                .target(Target.builder().arn(missing).roleArn(ROLE).input("x").retryPolicy(r -> r.maximumRetryAttempts(0))
                        .deadLetterConfig(d -> d.arn(arn(dlq))).build()));
        JsonNode note = JSON.readTree(firstMessage(dlqUrl).body());
        assertThat(note.get("ScheduleArn").asText()).endsWith("schedule/default/" + name);
        assertThat(note.get("ErrorMessage").asText()).startsWith("The target could not be invoked within the retry policy: SNS answered 404 NotFound");
        scheduler.deleteSchedule(b -> b.name(name));
    }

    @Test
    void aFifoTopicIsNotServedAsATarget() {
        ValidationException e = org.assertj.core.api.Assertions.catchThrowableOfType(ValidationException.class,
                () -> scheduler.createSchedule(b -> b.name("fifo-topic").scheduleExpression("rate(1 day)")
                        .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                        .target(Target.builder().arn("arn:aws:sns:us-east-1:000000000000:t.fifo").roleArn(ROLE).build())));
        assertThat(e).isNotNull();
        assertThat(e.statusCode()).isEqualTo(400);
    }
}
