package io.hikyaku.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hikyaku.it.support.ClientScripts;
import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The AWS CLI v1 ({@code aws scheduler ...}, on the PATH) against the real server on the injected clock: groups
 * and tags, schedules created, read, updated, listed and deleted, the errors as the CLI prints them, and
 * {@code at()} schedules in Europe/Berlin that fire into a standard and a FIFO queue when the clock reaches them.
 */
class SchedulerCliTest extends SqsTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROLE = "arn:aws:iam::000000000000:role/scheduler";

    private JsonNode aws(String... args) throws Exception {
        List<String> command = command(args);
        command.addAll(List.of("--output", "json"));
        ClientScripts.Result r = ClientScripts.run(command);
        assertThat(r.exit()).as(String.join(" ", command) + ": " + r.stderr()).isZero();
        return r.stdout().isBlank() ? null : JSON.readTree(r.stdout());
    }

    /** The CLI's error line for a refused call ({@code An error occurred (<code>) when calling the <Op> operation: <message>}). */
    private String refused(String... args) throws Exception {
        ClientScripts.Result r = ClientScripts.run(command(args));
        assertThat(r.exit()).as(String.join(" ", args) + " should fail").isNotZero();
        return r.stderr().strip();
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of("aws", "scheduler"));
        command.addAll(List.of(args));
        command.addAll(List.of("--endpoint-url", endpoint));
        return command;
    }

    private static String target(String queueArn, String input) {
        return JSON.createObjectNode().put("Arn", queueArn).put("RoleArn", ROLE).put("Input", input).toString();
    }

    @Test
    void groupsSchedulesTagsAndErrorsThroughTheCli() throws Exception {
        String queue = unique("cli-sched");
        createQueue(queue);
        String group = unique("cli-grp");
        String groupArn = aws("create-schedule-group", "--name", group, "--tags", "Key=team,Value=a").get("ScheduleGroupArn").asText();
        assertThat(groupArn).isEqualTo("arn:aws:scheduler:us-east-1:000000000000:schedule-group/" + group);
        assertThat(aws("get-schedule-group", "--name", group).get("State").asText()).isEqualTo("ACTIVE");
        aws("tag-resource", "--resource-arn", groupArn, "--tags", "Key=env,Value=dev");
        aws("untag-resource", "--resource-arn", groupArn, "--tag-keys", "team");
        assertThat(aws("list-tags-for-resource", "--resource-arn", groupArn).get("Tags").toString())
                .isEqualTo("[{\"Key\":\"env\",\"Value\":\"dev\"}]");

        for (int i = 0; i < 3; i++) {
            aws("create-schedule", "--name", "c" + i, "--group-name", group, "--schedule-expression", "rate(1 day)",
                    "--start-date", "2099-01-01T00:00:00Z", "--flexible-time-window", "Mode=OFF",
                    "--target", target(arn(queue), "hi"));
        }
        JsonNode got = aws("get-schedule", "--name", "c0", "--group-name", group);
        assertThat(got.get("Arn").asText()).isEqualTo("arn:aws:scheduler:us-east-1:000000000000:schedule/" + group + "/c0");
        assertThat(got.get("ScheduleExpression").asText()).isEqualTo("rate(1 day)");
        assertThat(got.get("StartDate").asDouble()).isEqualTo(4070908800.0); // epoch seconds: the CLI v1 prints the wire's value
        assertThat(got.get("Target").get("Arn").asText()).isEqualTo(arn(queue));

        aws("update-schedule", "--name", "c0", "--group-name", group, "--schedule-expression", "cron(30 8 ? * MON-FRI *)",
                "--schedule-expression-timezone", "Asia/Tokyo", "--state", "DISABLED",
                "--flexible-time-window", "Mode=FLEXIBLE,MaximumWindowInMinutes=30", "--target", target(arn(queue), "weekday"));
        JsonNode updated = aws("get-schedule", "--name", "c0", "--group-name", group);
        assertThat(updated.get("ScheduleExpression").asText()).isEqualTo("cron(30 8 ? * MON-FRI *)");
        assertThat(updated.get("ScheduleExpressionTimezone").asText()).isEqualTo("Asia/Tokyo");
        assertThat(updated.get("State").asText()).isEqualTo("DISABLED");
        assertThat(updated.get("FlexibleTimeWindow").get("MaximumWindowInMinutes").asInt()).isEqualTo(30);

        // the CLI follows NextToken itself; --page-size makes it take several pages
        JsonNode listed = aws("list-schedules", "--group-name", group, "--page-size", "1");
        List<String> names = new ArrayList<>();
        listed.get("Schedules").forEach(s -> names.add(s.get("Name").asText()));
        assertThat(names).containsExactlyInAnyOrder("c0", "c1", "c2");
        assertThat(aws("list-schedules", "--group-name", group, "--state", "DISABLED").get("Schedules")).hasSize(1);
        List<String> groups = new ArrayList<>();
        aws("list-schedule-groups").get("ScheduleGroups").forEach(g -> groups.add(g.get("Name").asText()));
        assertThat(groups).contains("default", group);

        assertThat(refused("create-schedule", "--name", "bad", "--schedule-expression", "rate(10 seconds)",
                "--flexible-time-window", "Mode=OFF", "--target", target(arn(queue), "x")))
                .endsWith("An error occurred (ValidationException) when calling the CreateSchedule operation: "
                        + "Invalid Schedule Expression rate(10 seconds).");
        assertThat(refused("create-schedule", "--name", "c1", "--group-name", group, "--schedule-expression", "rate(1 day)",
                "--flexible-time-window", "Mode=OFF", "--target", target(arn(queue), "x")))
                .endsWith("An error occurred (ConflictException) when calling the CreateSchedule operation: Schedule c1 already exists.");
        assertThat(refused("get-schedule", "--name", "missing", "--group-name", group))
                .endsWith("An error occurred (ResourceNotFoundException) when calling the GetSchedule operation: Schedule missing does not exist.");
        assertThat(refused("create-schedule-group", "--name", group))
                .endsWith("An error occurred (ConflictException) when calling the CreateScheduleGroup operation: Schedule group "
                        + group + " already exists.");

        aws("delete-schedule", "--name", "c2", "--group-name", group);
        assertThat(refused("delete-schedule", "--name", "c2", "--group-name", group))
                .contains("(ResourceNotFoundException) when calling the DeleteSchedule operation");
        aws("delete-schedule-group", "--name", group);
        assertThat(refused("get-schedule-group", "--name", group))
                .endsWith("An error occurred (ResourceNotFoundException) when calling the GetScheduleGroup operation: Schedule group "
                        + group + " does not exist.");
    }

    @Test
    void atSchedulesInBerlinFireIntoAStandardAndAFifoQueue() throws Exception {
        String queue = unique("cli-fire");
        String url = createQueue(queue);
        String fifo = uniqueFifo("cli-fire");
        String fifoUrl = createFifoQueue(fifo, Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        Instant due = clock.instant().plus(Duration.ofMinutes(90)).truncatedTo(ChronoUnit.SECONDS);
        String wall = LocalDateTime.ofInstant(due, ZoneId.of("Europe/Berlin")).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
        String standard = unique("cli-once");
        aws("create-schedule", "--name", standard, "--schedule-expression", "at(" + wall + ")",
                "--schedule-expression-timezone", "Europe/Berlin", "--flexible-time-window", "Mode=OFF",
                "--action-after-completion", "DELETE", "--target", target(arn(queue), "due <aws.scheduler.scheduled-time>"));
        String ordered = unique("cli-once-fifo");
        aws("create-schedule", "--name", ordered, "--schedule-expression", "at(" + wall + ")",
                "--schedule-expression-timezone", "Europe/Berlin", "--flexible-time-window", "Mode=OFF",
                "--target", JSON.createObjectNode().put("Arn", arn(fifo)).put("RoleArn", ROLE).put("Input", "in order")
                        .set("SqsParameters", JSON.createObjectNode().put("MessageGroupId", "cli")).toString());

        advance(Duration.ofMinutes(90).minusSeconds(1));
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).as("not before its time").isEmpty();
        advance(Duration.ofSeconds(1));
        assertThat(firstMessage(url).body()).isEqualTo("due " + due);
        Message f = firstMessage(fifoUrl);
        assertThat(f.body()).isEqualTo("in order");
        assertThat(f.attributes()).containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, "cli");
        sleep(300); // the fires are recorded after the tick's sends
        assertThat(refused("get-schedule", "--name", standard)).contains("(ResourceNotFoundException)");
        assertThat(aws("get-schedule", "--name", ordered).get("State").asText()).isEqualTo("ENABLED");
        aws("delete-schedule", "--name", ordered);
    }
}
