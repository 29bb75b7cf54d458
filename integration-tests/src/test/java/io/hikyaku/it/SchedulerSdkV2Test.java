package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.hikyaku.it.support.SqsTestBase;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.model.ActionAfterCompletion;
import software.amazon.awssdk.services.scheduler.model.ConflictException;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindow;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.ResourceNotFoundException;
import software.amazon.awssdk.services.scheduler.model.ScheduleGroupState;
import software.amazon.awssdk.services.scheduler.model.ScheduleGroupSummary;
import software.amazon.awssdk.services.scheduler.model.ScheduleState;
import software.amazon.awssdk.services.scheduler.model.ScheduleSummary;
import software.amazon.awssdk.services.scheduler.model.SchedulerException;
import software.amazon.awssdk.services.scheduler.model.Tag;
import software.amazon.awssdk.services.scheduler.model.Target;
import software.amazon.awssdk.services.scheduler.model.ValidationException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * EventBridge Scheduler through the AWS SDK for Java v2's {@code scheduler} client on the real server (in memory,
 * the injected clock): schedules and groups created, read, updated, listed (paginators) and deleted, tags,
 * ClientToken, AWS's error shapes as the SDK's modeled exceptions, and fires into a standard and a FIFO queue when
 * the clock reaches them.
 */
class SchedulerSdkV2Test extends SqsTestBase {

    private static final String ROLE = "arn:aws:iam::000000000000:role/scheduler";
    private static final FlexibleTimeWindow OFF = FlexibleTimeWindow.builder().mode(FlexibleTimeWindowMode.OFF).build();

    private SchedulerClient scheduler;

    @BeforeAll
    void client() {
        scheduler = SchedulerClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    private Target target(String queueArn, String input) {
        return Target.builder().arn(queueArn).roleArn(ROLE).input(input).build();
    }

    private static <T extends SchedulerException> T refused(Class<T> type, Runnable call, int status, String message) {
        T e = catchThrowableOfType(type, call::run);
        assertThat(e).as("expected " + type.getSimpleName()).isNotNull();
        assertThat(e.statusCode()).isEqualTo(status);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo(type.getSimpleName());
        if (message != null) {
            assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(message);
        }
        return e;
    }

    @Test
    void groupsSchedulesTagsAndListsRoundTrip() {
        String queue = unique("sdk-sched");
        createQueue(queue);
        String group = unique("sdk-grp");
        String groupArn = scheduler.createScheduleGroup(b -> b.name(group).tags(Tag.builder().key("team").value("a").build()))
                .scheduleGroupArn();
        assertThat(groupArn).isEqualTo("arn:aws:scheduler:us-east-1:000000000000:schedule-group/" + group);
        assertThat(scheduler.getScheduleGroup(b -> b.name(group)).state()).isEqualTo(ScheduleGroupState.ACTIVE);
        scheduler.tagResource(b -> b.resourceArn(groupArn).tags(Tag.builder().key("env").value("dev").build()));
        scheduler.untagResource(b -> b.resourceArn(groupArn).tagKeys("team"));
        assertThat(scheduler.listTagsForResource(b -> b.resourceArn(groupArn)).tags())
                .containsExactly(Tag.builder().key("env").value("dev").build());
        assertThat(scheduler.listScheduleGroupsPaginator(b -> b.maxResults(1)).scheduleGroups().stream()
                .map(ScheduleGroupSummary::name).toList()).contains("default", group);

        Instant start = Instant.parse("2099-01-01T00:00:00Z");
        for (int i = 0; i < 5; i++) {
            String name = "p" + i;
            scheduler.createSchedule(b -> b.name(name).groupName(group).scheduleExpression("rate(1 day)").startDate(start)
                    .flexibleTimeWindow(OFF).target(target(arn(queue), "hi")));
        }
        GetScheduleResponse got = scheduler.getSchedule(b -> b.name("p0").groupName(group));
        assertThat(got.arn()).isEqualTo("arn:aws:scheduler:us-east-1:000000000000:schedule/" + group + "/p0");
        assertThat(got.scheduleExpression()).isEqualTo("rate(1 day)");
        assertThat(got.scheduleExpressionTimezone()).isEqualTo("UTC");
        assertThat(got.startDate()).isEqualTo(start);
        assertThat(got.state()).isEqualTo(ScheduleState.ENABLED);
        assertThat(got.actionAfterCompletion()).isEqualTo(ActionAfterCompletion.NONE);
        assertThat(got.flexibleTimeWindow().mode()).isEqualTo(FlexibleTimeWindowMode.OFF);
        assertThat(got.target().arn()).isEqualTo(arn(queue));
        assertThat(got.target().input()).isEqualTo("hi");
        assertThat(got.creationDate()).isNotNull();

        scheduler.updateSchedule(b -> b.name("p0").groupName(group).scheduleExpression("cron(0 9 ? * MON *)")
                .scheduleExpressionTimezone("Europe/Berlin").state(ScheduleState.DISABLED).description("mondays")
                .flexibleTimeWindow(FlexibleTimeWindow.builder().mode(FlexibleTimeWindowMode.FLEXIBLE).maximumWindowInMinutes(15).build())
                .target(target(arn(queue), "monday")));
        GetScheduleResponse updated = scheduler.getSchedule(b -> b.name("p0").groupName(group));
        assertThat(updated.scheduleExpression()).isEqualTo("cron(0 9 ? * MON *)");
        assertThat(updated.scheduleExpressionTimezone()).isEqualTo("Europe/Berlin");
        assertThat(updated.state()).isEqualTo(ScheduleState.DISABLED);
        assertThat(updated.description()).isEqualTo("mondays");
        assertThat(updated.flexibleTimeWindow().maximumWindowInMinutes()).isEqualTo(15);
        assertThat(updated.startDate()).as("an update replaces the whole definition, as at AWS").isNull();

        List<String> paged = scheduler.listSchedulesPaginator(b -> b.groupName(group).maxResults(2)).schedules().stream()
                .map(ScheduleSummary::name).toList();
        assertThat(paged).containsExactlyInAnyOrder("p0", "p1", "p2", "p3", "p4");
        assertThat(scheduler.listSchedules(b -> b.groupName(group).state(ScheduleState.DISABLED)).schedules())
                .extracting(ScheduleSummary::name).containsExactly("p0");
        assertThat(scheduler.listSchedules(b -> b.groupName(group).namePrefix("p3")).schedules())
                .singleElement().satisfies(s -> assertThat(s.target().arn()).isEqualTo(arn(queue)));

        scheduler.deleteSchedule(b -> b.name("p4").groupName(group));
        refused(ResourceNotFoundException.class, () -> scheduler.getSchedule(b -> b.name("p4").groupName(group)), 404,
                "Schedule p4 does not exist.");
        scheduler.deleteScheduleGroup(b -> b.name(group));
        refused(ResourceNotFoundException.class, () -> scheduler.getScheduleGroup(b -> b.name(group)), 404,
                "Schedule group " + group + " does not exist.");
        refused(ResourceNotFoundException.class, () -> scheduler.getSchedule(b -> b.name("p1").groupName(group)), 404, null);
    }

    @Test
    void clientTokensMakeCreatesIdempotentAndOtherwiseConflict() {
        String queue = unique("sdk-token");
        createQueue(queue);
        String name = unique("tok");
        String first = scheduler.createSchedule(b -> b.name(name).scheduleExpression("rate(7 days)").flexibleTimeWindow(OFF)
                .startDate(Instant.parse("2099-01-01T00:00:00Z")).target(target(arn(queue), "x")).clientToken("token-1")).scheduleArn();
        String again = scheduler.createSchedule(b -> b.name(name).scheduleExpression("rate(7 days)").flexibleTimeWindow(OFF)
                .startDate(Instant.parse("2099-01-01T00:00:00Z")).target(target(arn(queue), "x")).clientToken("token-1")).scheduleArn();
        assertThat(again).isEqualTo(first);
        // without a token of its own the SDK fills one in (idempotencyToken): a second create is a conflict
        refused(ConflictException.class, () -> scheduler.createSchedule(b -> b.name(name).scheduleExpression("rate(7 days)")
                .flexibleTimeWindow(OFF).target(target(arn(queue), "x"))), 409, "Schedule " + name + " already exists.");
        String group = unique("tok-grp");
        scheduler.createScheduleGroup(b -> b.name(group).clientToken("group-token"));
        scheduler.createScheduleGroup(b -> b.name(group).clientToken("group-token"));
        refused(ConflictException.class, () -> scheduler.createScheduleGroup(b -> b.name(group)), 409,
                "Schedule group " + group + " already exists.");
        scheduler.deleteSchedule(b -> b.name(name));
        scheduler.deleteScheduleGroup(b -> b.name(group));
    }

    @Test
    void refusalsAreTheSdksModeledExceptions() {
        String queue = unique("sdk-errors");
        createQueue(queue);
        for (String bad : List.of("rate(10 seconds)", "at(2021-12-31)", "cron(0 1 * * * *)", "rate(-10 minutes)")) {
            refused(ValidationException.class, () -> scheduler.createSchedule(b -> b.name("bad").scheduleExpression(bad)
                    .flexibleTimeWindow(OFF).target(target(arn(queue), "x"))), 400, "Invalid Schedule Expression " + bad + ".");
        }
        refused(ValidationException.class, () -> scheduler.createSchedule(b -> b.name("bad").scheduleExpression("rate(1 day)")
                .flexibleTimeWindow(FlexibleTimeWindow.builder().mode(FlexibleTimeWindowMode.FLEXIBLE).maximumWindowInMinutes(1441).build())
                .target(target(arn(queue), "x"))), 400, null);
        refused(ValidationException.class, () -> scheduler.createSchedule(b -> b.name("bad").scheduleExpression("rate(1 day)")
                .scheduleExpressionTimezone("Mars/Olympus").flexibleTimeWindow(OFF).target(target(arn(queue), "x"))), 400,
                "Invalid timezone Mars/Olympus.");
        refused(ValidationException.class, () -> scheduler.createSchedule(b -> b.name("bad").scheduleExpression("rate(1 day)")
                .flexibleTimeWindow(OFF).target(Target.builder().arn("arn:aws:lambda:us-east-1:000000000000:function:f").roleArn(ROLE).build())),
                400, null);
        refused(ValidationException.class, () -> scheduler.createSchedule(b -> b.name("bad").scheduleExpression("rate(1 day)")
                .flexibleTimeWindow(OFF).target(target(arn(queue), "x").toBuilder()
                        .retryPolicy(r -> r.maximumRetryAttempts(186)).build())), 400,
                "1 validation error detected: Value '186' at 'target.retryPolicy.maximumRetryAttempts' failed to satisfy "
                        + "constraint: Member must have value between 0 and 185");
        refused(ValidationException.class, () -> scheduler.listSchedules(b -> b.maxResults(101)), 400,
                "1 validation error detected: Value '101' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100");
        refused(ValidationException.class, () -> scheduler.deleteScheduleGroup(b -> b.name("default")), 400,
                "The default schedule group cannot be deleted.");
        refused(ResourceNotFoundException.class, () -> scheduler.updateSchedule(b -> b.name(unique("none")).scheduleExpression("rate(1 day)")
                .flexibleTimeWindow(OFF).target(target(arn(queue), "x"))), 404, null);
        refused(ResourceNotFoundException.class, () -> scheduler.createSchedule(b -> b.name("orphan").groupName(unique("no-grp"))
                .scheduleExpression("rate(1 day)").flexibleTimeWindow(OFF).target(target(arn(queue), "x"))), 404, null);
        refused(ResourceNotFoundException.class, () -> scheduler.deleteSchedule(b -> b.name(unique("none"))), 404, null);
        String fifo = uniqueFifo("sdk-nodedup");
        createFifoQueue(fifo, Map.of());
        refused(ValidationException.class, () -> scheduler.createSchedule(b -> b.name("nodedup").scheduleExpression("rate(1 day)")
                .flexibleTimeWindow(OFF).target(target(arn(fifo), "x").toBuilder().sqsParameters(p -> p.messageGroupId("g")).build())),
                400, "Invalid target Arn " + arn(fifo) + ": a FIFO queue target must have ContentBasedDeduplication enabled.");
    }

    @Test
    void schedulesFireIntoStandardAndFifoQueuesWhenTheInjectedClockReachesThem() {
        String queue = unique("sdk-fire");
        String url = createQueue(queue);
        String fifo = uniqueFifo("sdk-fire");
        String fifoUrl = createFifoQueue(fifo, Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        // Berlin wall time two hours from the server's (injected) clock
        Instant due = clock.instant().plus(Duration.ofHours(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String wall = LocalDateTime.ofInstant(due, ZoneId.of("Europe/Berlin")).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
        String name = unique("once");
        scheduler.createSchedule(b -> b.name(name).scheduleExpression("at(" + wall + ")").scheduleExpressionTimezone("Europe/Berlin")
                .flexibleTimeWindow(OFF).actionAfterCompletion(ActionAfterCompletion.DELETE)
                .target(target(arn(queue), "{\"at\":\"<aws.scheduler.scheduled-time>\",\"n\":<aws.scheduler.attempt-number>}")));
        String fifoName = unique("once-fifo");
        scheduler.createSchedule(b -> b.name(fifoName).scheduleExpression("at(" + wall + ")").scheduleExpressionTimezone("Europe/Berlin")
                .flexibleTimeWindow(OFF).target(target(arn(fifo), "fifo <aws.scheduler.schedule-arn>").toBuilder()
                        .sqsParameters(p -> p.messageGroupId("g1")).build()));

        advance(Duration.ofHours(2).minusSeconds(1));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).as("not before its time").isEmpty();
        advance(Duration.ofSeconds(1));
        assertThat(firstMessage(url).body()).isEqualTo("{\"at\":\"" + due + "\",\"n\":1}");
        Message f = firstMessage(fifoUrl);
        assertThat(f.body()).isEqualTo("fifo arn:aws:scheduler:us-east-1:000000000000:schedule/default/" + fifoName);
        assertThat(f.attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "g1");
        sleep(300); // the tick records the fires after its sends
        refused(ResourceNotFoundException.class, () -> scheduler.getSchedule(b -> b.name(name)), 404, null); // DELETE
        assertThat(scheduler.getSchedule(b -> b.name(fifoName)).name()).isEqualTo(fifoName); // NONE: kept
        scheduler.deleteSchedule(b -> b.name(fifoName));
    }
}
